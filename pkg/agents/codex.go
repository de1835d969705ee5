package agents

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// codex: its running process holds its rollout file open (when it runs in
// its window), its TUIs may run through one shared daemon, it runs a new
// hook only once the user trusts it, and it ends cleanly on /quit. In codex
// 0.171.0 SIGINT kills the node launcher at once and leaves the terminal in
// the TUI's modes (alternate screen, kitty's keyboard protocol); `/quit`
// restores every mode and exits 0. Its composer reads a fast burst of keys
// as a paste, so Enter is sent once the text shows, in kitty's keyboard
// protocol (CSI 13 u).
var _ = Register(&Code{
	Name:     "codex",
	Binaries: []string{"codex"},
	Ending:   &Ending{Typed: "/quit", Enter: "\x1b[13u"},
	ReadID:   func(p Procs, pids []int) (ProcRecord, bool) { return HeldFile(p, "codex", codexRollout(), pids) },
	IDLimit:  codexIDLimit,
	SharedServer: func(argv []string) bool {
		return len(argv) > 1 && filepath.Base(argv[0]) == "codex" && argv[1] == "app-server" && slices.Contains(argv, "--managed-daemon")
	},
	Apart:        codexInProcess,
	SharedAttach: []string{"resume", idPlaceholder},
	Hooks: &Hooks{
		Settings: func(getenv func(string) string, home string) string {
			if d := getenv("CODEX_HOME"); d != "" {
				return filepath.Join(d, "hooks.json")
			}
			return filepath.Join(home, ".codex", "hooks.json")
		},
		Start: []string{"SessionStart"}, Working: []string{"UserPromptSubmit"}, Idle: []string{"Stop"},
		Note: "codex runs a new hook only once you trust it: " + codexTrustHow + ". By default codex runs every " +
			"window's hooks in its shared app-server daemon, where they cannot say which window they belong to: kittymux " +
			"records them only from a codex that runs in its window (codex --no-daemon)",
		Trust: codexTrust,
	},
})

// codexRollout is the path of codex's conversation file; the id is its
// first group. codex 0.171.0 opens rollout-<time>-<uuid>.jsonl for
// appending and keeps it open while the thread runs, in the process that
// runs the thread: the TUI's native process when it runs in process (`-c
// ...`, `--no-daemon`), else the shared app-server daemon, which serves
// every TUI of the user and holds a thread's file after its TUI has gone.
// So only a file held by a process of the window counts; the daemon's
// files say nothing about windows. Compiled when a codex window is first
// seen.
var codexRollout = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`/sessions/[0-9]{4}/[0-9]{2}/[0-9]{2}/rollout-[0-9T:-]+-` +
		`([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl$`)
})

// codexInProcess reports whether codex with argv runs its threads in its
// own process, apart from the shared daemon.
func codexInProcess(argv []string) bool {
	return slices.ContainsFunc(argv, func(a string) bool {
		return a == "--no-daemon" || a == "-c" || a == "--config"
	})
}

// codexIDLimit: codex 0.171.0 by default runs its TUI as a client of one
// shared app-server daemon (`codex app-server --managed-daemon`, started by
// the first TUI and kept after it): the daemon holds every thread's rollout
// file and its writer lock, writes the threads into its state database
// without any client's pid, and runs every thread's hooks in its own
// environment. Nothing a window's processes hold or a file records ties a
// TUI to its thread. Run in process (--no-daemon, or options the daemon
// cannot serve such as -c) the TUI holds its rollout open itself.
func codexIDLimit(argv []string) string {
	if codexInProcess(argv) {
		return ""
	}
	return "codex runs through its shared app-server daemon, which ties no window to its thread (its hooks run there " +
		"too): no exact id; `codex --no-daemon` runs in the window and gives one"
}

// codexTrustHow is what a user does once, in codex 0.171.0, to trust the
// hooks integration install added.
const codexTrustHow = `start codex once and answer its question about new hooks with "Trust all and continue" (or trust them in its /hooks)`

// codexTrust says whether codex trusts each of kittymux's hook groups in
// hooksFile: codex writes a trusted hook's key
// ("<hooks.json>:<event>:<group>:<hook>") as a table [hooks.state."KEY"]
// with its trusted_hash into config.toml beside hooks.json (checked on codex
// 0.171.0's /hooks). The hash is codex's own (of the hook as it was
// trusted): a hook changed since is asked again by codex, which this cannot
// see.
func codexTrust(hooksFile string, groups []HookGroup) (bool, string) {
	data, err := userfile.Read(filepath.Join(filepath.Dir(hooksFile), "config.toml"), SettingsMax)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Sprintf("codex's config.toml cannot be read (%v); %s", err, codexTrustHow)
	}
	tables := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if k, ok := strings.CutPrefix(line, `[hooks.state.`); ok {
			tables[strings.TrimSuffix(strings.TrimRightFunc(k, unicode.IsSpace), "]")] = true
		}
	}
	trusted := len(groups) > 0
	for _, g := range groups {
		// A TOML basic string quotes as JSON does for these paths.
		q, _ := json.Marshal(codexTrustKey(hooksFile, g))
		trusted = trusted && tables[string(q)]
	}
	if trusted {
		return true, ""
	}
	return false, "codex has not trusted kittymux's hooks yet, so it does not run them: " + codexTrustHow
}

// codexTrustKey is codex's key of the one hook of group g in hooksFile.
func codexTrustKey(hooksFile string, g HookGroup) string {
	return fmt.Sprintf("%s:%s:%d:0", hooksFile, codexEvent(g.Event), g.Index)
}

// codexEvent is codex's name of a hook event in its trust keys:
// SessionStart is session_start.
func codexEvent(event string) string {
	var b strings.Builder
	for i, r := range event {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
