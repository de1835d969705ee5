// Package agents knows the AI coding agent CLIs: their definitions, as
// data (assets/resume-agents.json, overridable per agent by the user's
// resume.json), validated and compiled into the flag tables recognition
// reads. What data cannot say of an agent is its Code, in a file of its own
// (claude.go, codex.go, ...). Which agent a command line runs is
// pkg/recognize's; where an agent keeps its conversations is read by
// pkg/conversations; whether the installed CLI still has the flags is
// pkg/probe's; how a window's agent comes back, pkg/plan's.
package agents

import (
	"errors"
	"fmt"
	"strings"
)

// ShippedFile names the shipped definitions in errors.
const ShippedFile = "resume-agents.json (shipped)"

// ErrDefinition is matched (errors.Is) by every error about a definition.
var ErrDefinition = errors.New("invalid agent definition")

// Latest scopes: how far "latest" reaches when the agent picks its most recent
// conversation. Only ScopeCwd is narrower than the whole machine as far as
// kittymux can tell: a project or a checkout has a root kittymux would have to
// read the disk to find, so they are treated like global.
const (
	ScopeCwd      = "cwd"      // the most recent conversation started in the same directory
	ScopeProject  = "project"  // per project (gemini): treated as global
	ScopeCheckout = "checkout" // per git checkout (amp): treated as global
	ScopeUnstated = "unstated" // the CLI does not say: treated as global
	ScopeGlobal   = "global"   // the most recent conversation anywhere
)

// Positional argument kinds.
const (
	PositionalPrompt  = "prompt"   // a prompt: dropped, never replayed
	PositionalPath    = "path"     // a project path: kept (opencode)
	PositionalOneShot = "one_shot" // any positional makes the run one-shot (mastracode)
)

// AlwaysHelper flags print and exit for every CLI.
var AlwaysHelper = map[string]bool{"--help": true, "--version": true}

// IDPlaceholder is replaced by the conversation id in the exact template.
const IDPlaceholder = "{id}"

const idPlaceholder = IDPlaceholder

// Definition is one agent's entry in resume-agents.json or resume.json. Field
// names are stable: they are the user's configuration format.
type Definition struct {
	// Notes is free text: where the facts come from and why a choice was made.
	Notes string `json:"notes,omitempty"`

	// Programs are executable names (basename; a trailing .exe, .js, .mjs or
	// .cjs is ignored). Empty means the agent's own name.
	Programs []string `json:"programs,omitempty"`
	// Packages are npm package names: a script or binary under
	// node_modules/<package>/ is this agent (node /…/@anthropic-ai/claude-code/cli.js).
	Packages []string `json:"packages,omitempty"`
	// Resume false: recognised, never rewritten (no conversation ids).
	// Absent means true.
	Resume *bool `json:"resume,omitempty"`
	// RenamesProcess: the agent overwrites its process title, so a bare
	// program name in a process list may have lost its flags (pi).
	RenamesProcess bool `json:"renames_process,omitempty"`
	// TitleWorking and TitleIdle are regular expressions for the window
	// title the agent sets while it works and while it waits for input. Only
	// from the CLI's own source or docs; none means the state is unknown.
	TitleWorking []string `json:"title_working,omitempty"`
	TitleIdle    []string `json:"title_idle,omitempty"`

	// IDPattern is a regular expression for a conversation id, matched
	// against the whole id. Empty means any plain token.
	IDPattern string `json:"id_pattern,omitempty"`
	// Exact is the argv that resumes the conversation {id}. It starts with a
	// flag (flag style: appended after the kept flags) or with a subcommand
	// (subcommand style: placed right after the program).
	Exact []string `json:"exact,omitempty"`
	// Latest is the argv that resumes the most recent conversation.
	Latest []string `json:"latest,omitempty"`
	// New is what a new conversation needs after the program (goose's
	// "session"); usually empty.
	New []string `json:"new,omitempty"`
	// LatestScope: cwd, project, checkout, unstated or global.
	LatestScope string `json:"latest_scope,omitempty"`
	// LatestValues are values of an id flag that mean "latest" (gemini's
	// --resume latest).
	LatestValues []string `json:"latest_values,omitempty"`

	// SessionSubcommands run the conversation and take the resume arguments
	// ("resume" for codex, "threads continue" for amp, "session" for goose).
	// Space-separated words. Stripped at recognition (the templates put them
	// back); the positional right after is the id when it matches IDPattern.
	SessionSubcommands []string `json:"session_subcommands,omitempty"`
	// IDFlags take a conversation id: the exact resume flag and flags that
	// choose the id up front (--session-id). Each must also be stripped.
	// The flag before {id} in Exact is one implicitly.
	IDFlags []string `json:"id_flags,omitempty"`
	// LatestFlags mean "the most recent conversation". The flags of Latest
	// are implicitly ones.
	LatestFlags []string `json:"latest_flags,omitempty"`

	// StripWithValue flags are removed with their value.
	StripWithValue []string `json:"strip_with_value,omitempty"`
	// StripOptionalValue flags are removed; the next word goes with them only
	// when it looks like an id (IDPattern) or is one of LatestValues.
	StripOptionalValue []string `json:"strip_optional_value,omitempty"`
	// Strip flags are removed; they take no value.
	Strip []string `json:"strip,omitempty"`
	// SecretFlags hold a secret as their value (--api-key): removed with the
	// value so it never reaches a saved session.
	SecretFlags []string `json:"secret_flags,omitempty"`

	// OneShotFlags make the run non-interactive (-p/--print), or attach it
	// to something a saved command re-attaches (copilot --connect). Such a
	// run is not rewritten. One that takes a value is also listed in
	// ValueFlags or OptionalValueFlags.
	OneShotFlags []string `json:"one_shot_flags,omitempty"`
	// OneShotValues: a value flag that is one-shot only with these values
	// (pi's --mode json).
	OneShotValues map[string][]string `json:"one_shot_values,omitempty"`
	// OneShotSubcommands are non-interactive subcommands (exec, run).
	// Space-separated words.
	OneShotSubcommands []string `json:"one_shot_subcommands,omitempty"`
	// PromptFlags carry a prompt as their value (--prompt X, gemini -i X):
	// removed with the value.
	PromptFlags []string `json:"prompt_flags,omitempty"`
	// Positionals: prompt (default; dropped), path (kept) or one_shot.
	Positionals string `json:"positionals,omitempty"`

	// ValueFlags are kept flags that take a value, so the value is not
	// mistaken for a prompt. An unknown --flag=value is one word and is kept;
	// an unknown --flag followed by a word keeps the flag and treats the word
	// as a positional, because nothing says the flag takes a value.
	ValueFlags []string `json:"value_flags,omitempty"`
	// OptionalValueFlags are kept flags whose value is optional: the next
	// word goes with them unless it starts with "-".
	OptionalValueFlags []string `json:"optional_value_flags,omitempty"`
	// VariadicFlags (of ValueFlags or OptionalValueFlags) take every
	// following word up to the next one starting with "-" (claude --add-dir
	// a b, copilot --allow-tool [<tools>...]).
	VariadicFlags []string `json:"variadic_flags,omitempty"`
	// SwitchFlags are kept flags that take no value, so the word after one
	// is a prompt (or the next flag), never its value. With ValueFlags and
	// OptionalValueFlags they make the definition parse a command line as
	// the CLI's help does when the CLI is not installed here to be read.
	SwitchFlags []string `json:"switch_flags,omitempty"`
	// CwdFlags (a subset of ValueFlags) move the agent's working directory
	// (codex -C): "latest" per directory then means that directory.
	CwdFlags []string `json:"cwd_flags,omitempty"`

	// Helpers are subcommands that are not conversations (mcp, login).
	// Space-separated words ("session list").
	Helpers []string `json:"helpers,omitempty"`
	// HelperFlags print and exit (-h, -v). --help and --version always do.
	HelperFlags []string `json:"helper_flags,omitempty"`

	// Probe and Probes: runs of the CLI whose output must show tokens.
	// Every flag of Exact and Latest must be expected by one of them.
	// Probe is the single form (the README's example); both may be given.
	Probe  *Probe  `json:"probe,omitempty"`
	Probes []Probe `json:"probes,omitempty"`

	// Conversations says where the agent keeps its conversations
	// (store.go; pkg/conversations reads them).
	Conversations *Store `json:"conversations,omitempty"`

	// ConfigEnv are the environment variables that configure the agent:
	// where its settings, account and conversations are, which server it
	// talks to, what it loads or runs. A trailing "*" is a prefix
	// ("CLAUDE_*"). A record sets one only when sealed: kittymux saw it on
	// the running agent. NAME_* (the agent's name in capitals) always
	// counts, and so does every shipped definition's list, whatever the
	// user's file says.
	ConfigEnv []string `json:"config_env,omitempty"`
}

// Probe runs the CLI with Args and expects each token of Expect in its output.
type Probe struct {
	Args   []string `json:"args"`
	Expect []string `json:"expect"`
}

// DefinitionError says which file, agent and field is wrong.
type DefinitionError struct {
	File  string
	Agent string
	Field string
	Msg   string
}

func (e *DefinitionError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Agent != "" {
		fmt.Fprintf(&b, ": agent %q", e.Agent)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": field %q", e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

func (e *DefinitionError) Is(target error) bool { return target == ErrDefinition }
