package recognize

import (
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// Window is one agent window as the scanner or the rewriter sees it.
type Window struct {
	ID  int
	Cwd string
	Cmd Command
	// KnownID is the conversation id reported for the window's agent
	// process (its own records, its hook, kittymux's journal; never a user
	// var alone). It wins over an id in argv:
	// the agent reports the id it is in now, which changes after /clear or
	// /resume, while argv keeps the one it started with.
	KnownID string
	// KnownIDFrom names the source of KnownID for reasons ("journal").
	KnownIDFrom string
	// Seen are the files the window's agent process ran (its executable
	// and, for an interpreter, the agent's script), symlinks resolved, as
	// read from the OS: what a sealed record may name as its program.
	Seen []string
	// Unverified says why Cmd rests on kitty's word rather than on the
	// process read from the OS (no /proc, a process that could not be
	// read); a record made from it is not sealed and asks first.
	Unverified string
	// ProcEnv is the agent process's environment as read from the OS: an
	// environment a restore record set is kept only where the process
	// holds it.
	ProcEnv []string
	// Since is when the window's agent process started, zero when not
	// known: the conversations written since are the ones it could hold.
	Since time.Time
	// LastSeen is when that process was last seen running (when it was read),
	// zero with Since.
	LastSeen time.Time
	// Origin names kittymux's journal record of the window's agent process
	// (journal.Record.Origin), "" when it has none: a restore record that
	// does not name the conversation carries it, for the prompt to find the
	// id the agent reported for that process after the save.
	Origin string
}

// Quote renders argv for people to read, each word shell-quoted where it
// needs it. Nothing runs what it returns.
func Quote(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			q = strconv.Quote(a)
		}
		parts[i] = q
	}
	return strings.Join(parts, " ")
}
