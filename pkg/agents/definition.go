// Package agents knows the AI coding agent CLIs: their definitions, and how
// each one is recognised in a process list or a typed line, which flags to
// keep and which to strip. The knowledge is data (assets/resume-agents.json,
// overridable per agent by the user's resume.json); this package interprets
// it. What data cannot say of an agent is its Code, in a file of its own
// (claude.go, codex.go, ...). Whether the installed CLI still has the flags
// is pkg/probe's; how a window's agent comes back, pkg/plan's.
package agents

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/kittymux/kittymux/pkg/userfile"
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
	// (conversation.go).
	Conversations *Store `json:"conversations,omitempty"`
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

type flagKind int

const (
	kindUnknown flagKind = iota
	kindValue
	kindOptionalValue
	kindStripValue
	kindStripOptional
	kindStrip
	kindSecret
	kindPrompt
	kindHelper
	kindOneShot // a one-shot flag without a value
	kindSwitch  // kept, takes no value (from the CLI's help)
)

// takesValue reports whether a flag of this kind needs the next word.
func (k flagKind) takesValue() bool {
	switch k {
	case kindValue, kindStripValue, kindSecret, kindPrompt:
		return true
	}
	return false
}

type subKind int

const (
	subSession subKind = iota
	subHelper
	subOneShot
)

type subcommand struct {
	words []string
	kind  subKind
}

// agent is a validated, compiled definition.
type agent struct {
	name      string
	def       Definition
	canResume bool
	idRE      func() *regexp.Regexp // nil: any plain token

	kinds         map[string]flagKind
	oneShot       map[string]bool
	oneShotValues map[string][]string
	idFlags       map[string]bool
	latestFlags   map[string]bool
	latestValues  map[string]bool
	variadic      map[string]bool
	cwdFlags      map[string]bool
	subcommands   []subcommand // longest first
	probes        []Probe
}

// launchers says what kind of program-running program name is, "" if
// none: a definition naming one would make the restore prompt run any
// script or command as that "agent". A switch, not a map built at init:
// every kittymux process would build it, most never read it.
func launchers(name string) string {
	switch name {
	case "sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "pdksh", "oksh", "loksh", "tcsh", "csh", "ash", "yash",
		"rc", "es", "nu", "nushell", "elvish", "xonsh", "pwsh", "powershell", "cmd", "busybox", "toybox", "ion",
		"murex", "oil", "osh", "ysh":
		return "a shell"
	case "nodejs", "bun", "deno", "irb", "luajit", "wish", "expect", "java", "jshell", "osascript", "Rscript", "R",
		"julia", "ghci", "runghc", "guile", "racket", "sbcl", "clisp", "awk", "gawk", "mawk", "nawk", "tsx", "ts-node":
		return "an interpreter"
	case "env", "sudo", "doas", "su", "runuser", "pkexec", "sg", "setsid", "nohup", "nice", "ionice", "chroot",
		"unshare", "nsenter", "timeout", "stdbuf", "xargs", "exec", "command", "builtin", "eval", "time", "strace",
		"ltrace", "gdb", "lldb", "valgrind", "script", "watch", "flock", "chrt", "taskset", "systemd-run", "ssh",
		"docker", "podman", "npx", "npm", "pnpm", "pnpx", "yarn", "bunx", "uv", "uvx", "pipx", "pip", "poetry",
		"cargo", "go", "make", "just", "dotnet", "tmux", "screen", "kitty", "kitten", "kittymux", "kittymux-resume",
		"open", "xdg-open", "start", "vim", "vi", "nvim", "emacs", "ed", "ex", "less", "more":
		return "a launcher"
	}
	return ""
}

// launcher says what kind of program-running program name is, "" if none.
func launcher(name string) string {
	name = strings.TrimSuffix(name, ".exe")
	if what := launchers(name); what != "" {
		return what
	}
	if isVersionedLauncher(name) {
		return "an interpreter"
	}
	return ""
}

func fieldErr(file, agent, field, format string, args ...any) error {
	return &DefinitionError{File: file, Agent: agent, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// shippedAgent is an entry of shipped, the shipped definitions: shipped.go,
// generated from assets/resume-agents.json by gen.go.
type shippedAgent struct {
	name string
	def  Definition
}

//go:generate go run gen.go

// buildShipped builds the shipped definitions. Those that fail are
// reported and left out, as entries of the user's file are.
func buildShipped() (map[string]*agent, error) {
	out := make(map[string]*agent, len(shipped))
	var errs []error
	for _, e := range shipped {
		a, err := buildNamed(ShippedFile, e.name, e.def)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[e.name] = a
	}
	return out, errors.Join(errs...)
}

// decodeFile decodes a definitions file entry by entry, each strictly, so
// that one entry that fails is reported and the others kept.
func decodeFile(data []byte, file string) (map[string]*agent, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fieldErr(file, "", "", "not a JSON object of agent definitions: %v", err)
	}
	out := make(map[string]*agent, len(raw))
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		a, err := compile(file, name, raw[name])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[name] = a
	}
	return out, errors.Join(errs...)
}

func buildNamed(file, name string, d Definition) (*agent, error) {
	if !isName(name) {
		return nil, fieldErr(file, name, "", "name must be lowercase letters, digits, '.', '_' or '-'")
	}
	return build(file, name, d)
}

func compile(file, name string, raw json.RawMessage) (*agent, error) {
	if !isName(name) {
		return nil, fieldErr(file, name, "", "name must be lowercase letters, digits, '.', '_' or '-'")
	}
	var d Definition
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, decodeErr(file, name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fieldErr(file, name, "", "trailing data after the definition")
	}
	return build(file, name, d)
}

// decodeErr turns encoding/json's messages into field-naming ones.
func decodeErr(file, name string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fieldErr(file, name, te.Field, "must be %s, not %s", te.Type, te.Value)
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fieldErr(file, name, strings.Trim(f, `"`), "unknown field")
	}
	return fieldErr(file, name, "", "%v", err)
}

// idPatterns memoises id patterns: most agents share the uuid one. A
// pattern is parsed (and so checked) when its definition is loaded, and
// compiled when an id is first checked against it: a process meets few of
// the agents, and compiling every pattern (one repeats a class 127 times)
// was a good part of a process's start-up.
var idPatterns sync.Map // pattern -> *idPattern

type idPattern struct {
	empty bool                  // the anchored pattern matches an empty id
	re    func() *regexp.Regexp // anchored, compiled once
}

func compileID(pattern string) (*idPattern, error) {
	if p, ok := idPatterns.Load(pattern); ok {
		return p.(*idPattern), nil
	}
	// Parsed alone first so the error quotes the user's pattern; parsing is
	// what fails in regexp.Compile, with the same error.
	if _, err := syntax.Parse(pattern, syntax.Perl); err != nil {
		return nil, err
	}
	anchored := `^(?:` + pattern + `)$`
	tree, err := syntax.Parse(anchored, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("when anchored: %w", err)
	}
	p, _ := idPatterns.LoadOrStore(pattern, &idPattern{
		empty: matchesEmpty(tree),
		re:    sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(anchored) }),
	})
	return p.(*idPattern), nil
}

// matchesEmpty reports whether re matches the empty string, where every
// assertion is tested at the one position there is: the start and end of
// text and of a line hold there, a word boundary does not.
func matchesEmpty(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpNoWordBoundary, syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpCapture, syntax.OpPlus:
		return matchesEmpty(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || matchesEmpty(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !matchesEmpty(sub) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if matchesEmpty(sub) {
				return true
			}
		}
		return false
	}
	// OpNoMatch, OpLiteral, OpCharClass, OpAnyChar, OpAnyCharNotNL and
	// OpWordBoundary each need a character or a word character beside.
	return false
}

// build validates a definition and compiles it, step by step: each step
// checks the fields it compiles, so an error names the first wrong field.
func build(file, name string, d Definition) (*agent, error) {
	b := &builder{file: file, a: newAgent(name, d)}
	for _, step := range []func(Definition) error{
		b.programs, b.flagLists, b.flagRoles, b.positionals, b.subcommands, b.idPattern, b.templates, b.probes,
	} {
		if err := step(d); err != nil {
			return nil, err
		}
	}
	return b.a, nil
}

// builder compiles one definition of file into a.
type builder struct {
	file string
	a    *agent
}

func (b *builder) bad(field, format string, args ...any) error {
	return fieldErr(b.file, b.a.name, field, format, args...)
}

func newAgent(name string, d Definition) *agent {
	a := &agent{
		name:          name,
		def:           d,
		canResume:     d.Resume == nil || *d.Resume,
		oneShot:       map[string]bool{},
		oneShotValues: map[string][]string{},
		idFlags:       map[string]bool{},
		latestFlags:   map[string]bool{},
		latestValues:  map[string]bool{},
		variadic:      map[string]bool{},
		cwdFlags:      map[string]bool{},
	}
	if len(a.def.Programs) == 0 {
		a.def.Programs = []string{name}
	}
	return a
}

// programs checks the program and package names, the title patterns and
// where the conversations are kept.
func (b *builder) programs(d Definition) error {
	for _, p := range b.a.def.Programs {
		if !isProgram(p) {
			return b.bad("programs", "%q is not a plain executable name", p)
		}
		if what := launcher(p); what != "" {
			field := "programs"
			if len(d.Programs) == 0 {
				field = "" // the agent's own name stands for its program
			}
			return b.bad(field, "%q is %s, not an agent: refused, since the restore prompt would run whatever it is given", p, what)
		}
	}
	for _, p := range d.Packages {
		if !isPackage(p) {
			return b.bad("packages", "%q is not an npm package name", p)
		}
	}
	if err := checkTitles(b.file, b.a.name, d); err != nil {
		return err
	}
	if field, msg := checkStore(d.Conversations); msg != "" {
		return b.bad(field, "%s", msg)
	}
	return nil
}

// kindField is the field of a definition that gives a flag its kind.
var kindField = [...]string{
	kindValue: "value_flags", kindOptionalValue: "optional_value_flags", kindStripValue: "strip_with_value",
	kindStripOptional: "strip_optional_value", kindStrip: "strip", kindSecret: "secret_flags",
	kindPrompt: "prompt_flags", kindHelper: "helper_flags", kindOneShot: "one_shot_flags", kindSwitch: "switch_flags",
}

// flagLists gives each flag of the lists its kind. Each flag has one kind,
// so a definition cannot both keep and strip a flag.
func (b *builder) flagLists(d Definition) error {
	lists := []struct {
		flags []string
		kind  flagKind
	}{
		{d.StripWithValue, kindStripValue},
		{d.StripOptionalValue, kindStripOptional},
		{d.Strip, kindStrip},
		{d.SecretFlags, kindSecret},
		{d.PromptFlags, kindPrompt},
		{d.ValueFlags, kindValue},
		{d.OptionalValueFlags, kindOptionalValue},
		{d.SwitchFlags, kindSwitch},
		{d.HelperFlags, kindHelper},
	}
	n := len(d.OneShotFlags)
	for _, l := range lists {
		n += len(l.flags)
	}
	b.a.kinds = make(map[string]flagKind, n)
	for _, l := range lists {
		for _, f := range l.flags {
			if !isFlag(f) {
				return b.bad(kindField[l.kind], "%q is not a flag (one word starting with '-', no '=')", f)
			}
			if prev, dup := b.a.kinds[f]; dup {
				return b.bad(kindField[l.kind], "flag %q is also in %q", f, kindField[prev])
			}
			b.a.kinds[f] = l.kind
		}
	}
	return b.oneShotFlags(d)
}

// oneShotFlags: a one-shot flag is a switch of its own or a kept value
// flag.
func (b *builder) oneShotFlags(d Definition) error {
	a := b.a
	for _, f := range d.OneShotFlags {
		if !isFlag(f) {
			return b.bad("one_shot_flags", "%q is not a flag", f)
		}
		switch a.kinds[f] {
		case kindUnknown:
			a.kinds[f] = kindOneShot
		case kindValue, kindOptionalValue:
		default:
			return b.bad("one_shot_flags", "flag %q is also in %q", f, kindField[a.kinds[f]])
		}
		a.oneShot[f] = true
	}
	for f, vals := range d.OneShotValues {
		if a.kinds[f] != kindValue {
			return b.bad("one_shot_values", "flag %q must be in \"value_flags\"", f)
		}
		if len(vals) == 0 {
			return b.bad("one_shot_values", "flag %q has no values", f)
		}
		a.oneShotValues[f] = vals
	}
	return nil
}

// flagRoles checks the flags given a role on top of their kind (variadic,
// cwd, id, latest) against their kind.
func (b *builder) flagRoles(d Definition) error {
	a := b.a
	roles := []struct {
		field, must string
		flags       []string
		set         map[string]bool
		kinds       []flagKind
	}{
		{"variadic_flags", `"value_flags" or "optional_value_flags"`, d.VariadicFlags, a.variadic, []flagKind{kindValue, kindOptionalValue}},
		{"cwd_flags", `"value_flags"`, d.CwdFlags, a.cwdFlags, []flagKind{kindValue}},
		{"id_flags", `"strip_with_value" or "strip_optional_value"`, d.IDFlags, a.idFlags, []flagKind{kindStripValue, kindStripOptional}},
		{"latest_flags", `"strip" or "strip_optional_value"`, d.LatestFlags, a.latestFlags, []flagKind{kindStrip, kindStripOptional}},
	}
	for _, r := range roles {
		for _, f := range r.flags {
			if !slices.Contains(r.kinds, a.kinds[f]) {
				return b.bad(r.field, "flag %q must be in %s", f, r.must)
			}
			r.set[f] = true
		}
	}
	for _, v := range d.LatestValues {
		if !isSubword(v) {
			return b.bad("latest_values", "%q is not a plain word", v)
		}
		a.latestValues[v] = true
	}
	return nil
}

func (b *builder) positionals(d Definition) error {
	switch d.Positionals {
	case "":
		b.a.def.Positionals = PositionalPrompt
	case PositionalPrompt, PositionalPath, PositionalOneShot:
	default:
		return b.bad("positionals", "must be %q, %q or %q, not %q", PositionalPrompt, PositionalPath, PositionalOneShot, d.Positionals)
	}
	return nil
}

// subcommands compiles the subcommand paths, each in one list only,
// longest first so "session list" (a helper) wins over "session".
func (b *builder) subcommands(d Definition) error {
	a := b.a
	fields := [...]string{subSession: "session_subcommands", subHelper: "helpers", subOneShot: "one_shot_subcommands"}
	lists := [...][]string{subSession: d.SessionSubcommands, subHelper: d.Helpers, subOneShot: d.OneShotSubcommands}
	a.subcommands = make([]subcommand, 0, len(lists[0])+len(lists[1])+len(lists[2]))
	for kind, paths := range lists {
		for i, p := range paths {
			words := paths[i : i+1 : i+1] // one word, as most are
			if !isSubword(p) {
				words = strings.Fields(p)
				if len(words) == 0 {
					return b.bad(fields[kind], "empty subcommand")
				}
				for _, w := range words {
					if !isSubword(w) {
						return b.bad(fields[kind], "%q is not a subcommand", p)
					}
				}
			}
			for _, prev := range a.subcommands {
				if slices.Equal(prev.words, words) {
					return b.bad(fields[kind], "subcommand %q is also in %q", strings.Join(words, " "), fields[prev.kind])
				}
			}
			a.subcommands = append(a.subcommands, subcommand{words: words, kind: subKind(kind)})
		}
	}
	slices.SortStableFunc(a.subcommands, func(x, y subcommand) int { return len(y.words) - len(x.words) })
	return nil
}

func (b *builder) idPattern(d Definition) error {
	if d.IDPattern == "" {
		return nil
	}
	p, err := compileID(d.IDPattern)
	if err != nil {
		return b.bad("id_pattern", "does not compile: %v", err)
	}
	if p.empty {
		return b.bad("id_pattern", "matches an empty id")
	}
	b.a.idRE = p.re
	return nil
}

// templates checks the resume templates: none for an agent that does not
// resume, an exact one with {id} and a scoped latest one for one that does.
func (b *builder) templates(d Definition) error {
	if !b.a.canResume {
		for field, t := range map[string][]string{"exact": d.Exact, "latest": d.Latest, "new": d.New} {
			if len(t) > 0 {
				return b.bad(field, "must be empty when \"resume\" is false")
			}
		}
		if d.LatestScope != "" {
			return b.bad("latest_scope", "must be empty when \"resume\" is false")
		}
		return nil
	}
	if len(d.Exact) == 0 {
		return b.bad("exact", "must contain %q", idPlaceholder)
	}
	if err := b.a.checkTemplate("exact", d.Exact, true); err != nil {
		return b.bad("exact", "%v", err)
	}
	if err := b.latest(d); err != nil {
		return err
	}
	if err := b.newTemplate(d); err != nil {
		return err
	}
	// The flag before {id} is an id flag, the flags of latest are latest
	// flags, without repeating them in id_flags and latest_flags.
	if f := b.a.exactIDFlag(); f != "" {
		b.a.idFlags[f] = true
	}
	for _, w := range d.Latest {
		if isFlag(w) && b.a.kinds[w] == kindStrip {
			b.a.latestFlags[w] = true
		}
	}
	return nil
}

// latest checks the latest template and its scope, which go together.
func (b *builder) latest(d Definition) error {
	if len(d.Latest) == 0 {
		if d.LatestScope != "" {
			return b.bad("latest_scope", "set without \"latest\"")
		}
		return nil
	}
	if err := b.a.checkTemplate("latest", d.Latest, false); err != nil {
		return b.bad("latest", "%v", err)
	}
	switch d.LatestScope {
	case ScopeCwd, ScopeProject, ScopeCheckout, ScopeUnstated, ScopeGlobal:
	case "":
		return b.bad("latest_scope", "required with \"latest\" (cwd, project, checkout, unstated or global)")
	default:
		return b.bad("latest_scope", "unknown scope %q (cwd, project, checkout, unstated or global)", d.LatestScope)
	}
	return nil
}

// newTemplate: a new conversation's words are a session subcommand, so a
// saved one is stripped.
func (b *builder) newTemplate(d Definition) error {
	for _, w := range d.New {
		if !isSubword(w) {
			return b.bad("new", "%q is not a subcommand word", w)
		}
	}
	if len(d.New) > 0 && !b.a.isSession(d.New) {
		return b.bad("new", "%q must be in \"session_subcommands\" so a saved one is stripped", strings.Join(d.New, " "))
	}
	return nil
}

// probes checks the probe runs, and that an agent that resumes has one
// expecting every flag of its templates.
func (b *builder) probes(d Definition) error {
	a := b.a
	if d.Probe != nil {
		a.probes = append(a.probes, *d.Probe)
	}
	a.probes = append(a.probes, d.Probes...)
	for _, p := range a.probes {
		if len(p.Args) == 0 {
			return b.bad("probes", "a probe needs args")
		}
		for _, w := range p.Args {
			if !isTemplateWord(w) {
				return b.bad("probes", "argument %q is not a plain word", w)
			}
		}
		for _, tok := range p.Expect {
			if tok == "" || strings.ContainsAny(tok, " \t\n") {
				return b.bad("probes", "expected token %q must be one word", tok)
			}
		}
	}
	if !a.canResume {
		return nil
	}
	if len(a.probes) == 0 {
		return b.bad("probes", "an agent that resumes needs a probe confirming its flags")
	}
	for _, t := range []struct {
		field string
		words []string
	}{{"exact", d.Exact}, {"latest", d.Latest}} {
		for _, tok := range templateFlags(t.words) {
			if !a.expects(tok) {
				return b.bad("probes", "flag %q of %q is not expected by any probe", tok, t.field)
			}
		}
	}
	return nil
}

// checkTemplate validates a resume template. Every flag of it must be
// stripped at recognition and its leading subcommand words must be a session
// subcommand, so a resumed command never carries the resume twice.
func (a *agent) checkTemplate(field string, t []string, wantID bool) error {
	ids := 0
	for _, w := range t {
		if w == "" {
			return errors.New("empty word")
		}
		n := strings.Count(w, idPlaceholder)
		ids += n
		if n > 0 && w != idPlaceholder && !(strings.HasPrefix(w, "-") && strings.HasSuffix(w, "="+idPlaceholder)) {
			return fmt.Errorf("%q: %s must be a word of its own or a --flag=%s", w, idPlaceholder, idPlaceholder)
		}
		if n == 0 && !isTemplateWord(w) {
			return fmt.Errorf("%q is not a plain word", w)
		}
	}
	switch {
	case wantID && ids == 0:
		return fmt.Errorf("must contain %q", idPlaceholder)
	case wantID && ids > 1:
		return fmt.Errorf("must contain %q only once", idPlaceholder)
	case !wantID && ids != 0:
		return fmt.Errorf("must not contain %q", idPlaceholder)
	}
	var lead []string
	for _, w := range t {
		if strings.HasPrefix(w, "-") || w == idPlaceholder {
			break
		}
		lead = append(lead, w)
	}
	if len(lead) > 0 && !a.isSession(lead) {
		return fmt.Errorf("subcommand %q must be in \"session_subcommands\" so a saved one is stripped", strings.Join(lead, " "))
	}
	for i, w := range t {
		if !strings.HasPrefix(w, "-") {
			continue
		}
		f, _, _ := strings.Cut(w, "=")
		if !isFlag(f) {
			return fmt.Errorf("%q is not a flag", w)
		}
		switch a.kinds[f] {
		case kindStrip, kindStripOptional:
		case kindStripValue:
			// A flag that always takes a value must be followed by one.
			if !strings.Contains(w, "=") && (i+1 >= len(t) || strings.HasPrefix(t[i+1], "-")) {
				return fmt.Errorf("flag %q takes a value but none follows", f)
			}
		default:
			return fmt.Errorf("flag %q must be in \"strip\", \"strip_with_value\" or \"strip_optional_value\" so a saved one is not doubled", f)
		}
	}
	return nil
}

func (a *agent) isSession(words []string) bool {
	for _, s := range a.subcommands {
		if s.kind == subSession && slices.Equal(s.words, words) {
			return true
		}
	}
	return false
}

// exactIDFlag is the flag that carries {id} in the exact template, if any.
func (a *agent) exactIDFlag() string {
	for i, w := range a.def.Exact {
		if w == idPlaceholder && i > 0 && strings.HasPrefix(a.def.Exact[i-1], "-") {
			return a.def.Exact[i-1]
		}
		if f, ok := strings.CutSuffix(w, "="+idPlaceholder); ok {
			return f
		}
	}
	return ""
}

func (a *agent) expects(tok string) bool {
	for _, p := range a.probes {
		if slices.Contains(p.Expect, tok) {
			return true
		}
	}
	return false
}

// templateFlags are the flag names a template uses ("--resume={id}" gives
// "--resume").
func templateFlags(t []string) []string {
	var out []string
	for _, w := range t {
		if strings.HasPrefix(w, "-") {
			f, _, _ := strings.Cut(w, "=")
			out = append(out, f)
		}
	}
	return out
}

// Set is a loaded, validated collection of agent definitions.
type Set struct {
	agents    map[string]*agent
	names     []string
	byProgram map[string]*agent
	packages  []string // longest first, so a nested package name wins
	byPackage map[string]*agent
}

// agent returns the named agent.
func (s *Set) agent(name string) (*agent, bool) {
	a, ok := s.agents[name]
	return a, ok
}

// Load returns the shipped definitions, each replaced by an entry of the
// user's file with the same name. A missing user file (or "") is fine. On a
// bad user file the error names the file, the agent and the field, and the Set
// still holds the shipped definitions plus the user entries that were valid.
func Load(userFile string) (*Set, error) {
	shipped, shipErr := buildShipped()
	if userFile == "" {
		s, err := newSet(shipped, nil, "")
		return s, errors.Join(shipErr, err)
	}
	data, err := userfile.Read(userFile, maxUserFile)
	if errors.Is(err, fs.ErrNotExist) {
		s, err := newSet(shipped, nil, "")
		return s, errors.Join(shipErr, err)
	}
	if err != nil {
		s, _ := newSet(shipped, nil, "")
		return s, errors.Join(shipErr, fmt.Errorf("read agent definitions %s: %w", userFile, err))
	}
	user, userErr := decodeFile(data, userFile)
	s, err := newSet(shipped, user, userFile)
	return s, errors.Join(shipErr, userErr, err)
}

// newSet merges user entries over shipped ones. A user entry claiming another
// agent's program or package is refused: which agent a process is must not
// depend on map order.
func newSet(shipped, user map[string]*agent, userFile string) (*Set, error) {
	merged := make(map[string]*agent, len(shipped)+len(user))
	for n, a := range shipped {
		merged[n] = a
	}
	for n, a := range user {
		merged[n] = a
	}
	var errs []error
	for {
		s, conflict := index(merged, user)
		if conflict == nil {
			return s, errors.Join(errs...)
		}
		errs = append(errs, fieldErr(userFile, conflict.agent, conflict.field, "%q is already agent %q", conflict.value, conflict.owner))
		if sh, ok := shipped[conflict.agent]; ok {
			merged[conflict.agent] = sh
		} else {
			delete(merged, conflict.agent)
		}
		delete(user, conflict.agent)
	}
}

type conflict struct{ agent, field, value, owner string }

func index(merged, user map[string]*agent) (*Set, *conflict) {
	s := &Set{agents: merged, byProgram: map[string]*agent{}, byPackage: map[string]*agent{}}
	for n := range merged {
		s.names = append(s.names, n)
	}
	sort.Strings(s.names)
	// Shipped entries first, so the conflict is blamed on the user entry.
	order := slices.Clone(s.names)
	sort.SliceStable(order, func(i, j int) bool {
		_, ui := user[order[i]]
		_, uj := user[order[j]]
		return !ui && uj
	})
	for _, n := range order {
		a := merged[n]
		for _, p := range a.def.Programs {
			if o, dup := s.byProgram[p]; dup {
				return nil, &conflict{n, "programs", p, o.name}
			}
			s.byProgram[p] = a
		}
		for _, p := range a.def.Packages {
			if o, dup := s.byPackage[p]; dup {
				return nil, &conflict{n, "packages", p, o.name}
			}
			s.byPackage[p] = a
			s.packages = append(s.packages, p)
		}
	}
	sort.SliceStable(s.packages, func(i, j int) bool { return len(s.packages[i]) > len(s.packages[j]) })
	return s, nil
}

// IsProgram reports whether name (a process's name, as ps shows it) is a
// program of a defined agent.
func (s *Set) IsProgram(name string) bool {
	_, ok := s.byProgram[name]
	return ok
}

// Names lists the defined agents, sorted.
func (s *Set) Names() []string { return slices.Clone(s.names) }

// Definition returns an agent's definition as loaded (Programs filled in).
func (s *Set) Definition(name string) (Definition, bool) {
	a, ok := s.agent(name)
	if !ok {
		return Definition{}, false
	}
	return a.def, true
}

// CanResume reports whether the agent is defined and resumes by id.
func (s *Set) CanResume(name string) bool {
	a, ok := s.agent(name)
	return ok && a.canResume
}

// IsIDFlag reports whether flag takes a conversation id of agentName: one
// of its id_flags, or the flag before {id} in its exact template.
func (s *Set) IsIDFlag(agentName, flag string) bool {
	a, ok := s.agent(agentName)
	return ok && a.idFlags[flag]
}

// ProbeRuns are the runs of agentName's CLI its definition expects tokens
// from (probe, then probes).
func (s *Set) ProbeRuns(agentName string) []Probe {
	a, ok := s.agent(agentName)
	if !ok {
		return nil
	}
	return slices.Clone(a.probes)
}
