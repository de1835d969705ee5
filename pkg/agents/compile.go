package agents

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
)

type FlagKind int

const (
	KindUnknown FlagKind = iota
	KindValue
	KindOptionalValue
	KindStripValue
	KindStripOptional
	KindStrip
	KindSecret
	KindPrompt
	KindHelper
	KindOneShot // a one-shot flag without a value
	KindSwitch  // kept, takes no value (from the CLI's help)
)

// TakesValue reports whether a flag of this kind needs the next word.
func (k FlagKind) TakesValue() bool {
	switch k {
	case KindValue, KindStripValue, KindSecret, KindPrompt:
		return true
	}
	return false
}

type SubKind int

const (
	SubSession SubKind = iota
	SubHelper
	SubOneShot
)

type Subcommand struct {
	Words []string
	Kind  SubKind
}

// Agent is a validated, compiled definition: what recognition reads.
type Agent struct {
	Name      string
	Def       Definition
	canResume bool
	idRE      func() *regexp.Regexp // nil: any plain token

	kinds         map[string]FlagKind
	OneShot       map[string]bool
	OneShotValues map[string][]string
	IDFlags       map[string]bool
	LatestFlags   map[string]bool
	LatestValues  map[string]bool
	Variadic      map[string]bool
	CwdFlags      map[string]bool
	subcommands   []Subcommand // longest first
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
	Name string
	Def  Definition
}

// ShippedSecretFlags are the flags whose value is a secret (secret_flags)
// in the shipped definition of agent name: for a reader that loads no
// definitions (the hook) and must not keep a key it was handed.
func ShippedSecretFlags(name string) []string {
	for _, e := range shipped {
		if e.Name == name {
			return e.Def.SecretFlags
		}
	}
	return nil
}

//go:generate go run gen.go

// decodeFile decodes a definitions file entry by entry, each strictly, so
// that one entry that fails is reported and the others kept.
func decodeFile(data []byte, file string) (map[string]*Agent, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fieldErr(file, "", "", "not a JSON object of agent definitions: %v", err)
	}
	out := make(map[string]*Agent, len(raw))
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

func buildNamed(file, name string, d Definition) (*Agent, error) {
	if !isName(name) {
		return nil, fieldErr(file, name, "", "name must be lowercase letters, digits, '.', '_' or '-'")
	}
	return build(file, name, d)
}

func compile(file, name string, raw json.RawMessage) (*Agent, error) {
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
func build(file, name string, d Definition) (*Agent, error) {
	b := &builder{file: file, a: newAgent(name, d)}
	for _, step := range []func(Definition) error{
		b.programs, b.flagLists, b.flagRoles, b.positionals, b.subcommands, b.idPattern, b.templates, b.probes, b.configEnv,
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
	a    *Agent
}

func (b *builder) bad(field, format string, args ...any) error {
	return fieldErr(b.file, b.a.Name, field, format, args...)
}

func newAgent(name string, d Definition) *Agent {
	a := &Agent{
		Name:          name,
		Def:           d,
		canResume:     d.Resume == nil || *d.Resume,
		OneShot:       map[string]bool{},
		OneShotValues: map[string][]string{},
		IDFlags:       map[string]bool{},
		LatestFlags:   map[string]bool{},
		LatestValues:  map[string]bool{},
		Variadic:      map[string]bool{},
		CwdFlags:      map[string]bool{},
	}
	if len(a.Def.Programs) == 0 {
		a.Def.Programs = []string{name}
	}
	return a
}

// programs checks the program and package names, the title patterns and
// where the conversations are kept.
func (b *builder) programs(d Definition) error {
	for _, p := range b.a.Def.Programs {
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
	if err := checkTitles(b.file, b.a.Name, d); err != nil {
		return err
	}
	if field, msg := checkStore(d.Conversations); msg != "" {
		return b.bad(field, "%s", msg)
	}
	return nil
}

// kindField is the field of a definition that gives a flag its kind.
var kindField = [...]string{
	KindValue: "value_flags", KindOptionalValue: "optional_value_flags", KindStripValue: "strip_with_value",
	KindStripOptional: "strip_optional_value", KindStrip: "strip", KindSecret: "secret_flags",
	KindPrompt: "prompt_flags", KindHelper: "helper_flags", KindOneShot: "one_shot_flags", KindSwitch: "switch_flags",
}

// flagLists gives each flag of the lists its kind. Each flag has one kind,
// so a definition cannot both keep and strip a flag.
func (b *builder) flagLists(d Definition) error {
	lists := []struct {
		flags []string
		kind  FlagKind
	}{
		{d.StripWithValue, KindStripValue},
		{d.StripOptionalValue, KindStripOptional},
		{d.Strip, KindStrip},
		{d.SecretFlags, KindSecret},
		{d.PromptFlags, KindPrompt},
		{d.ValueFlags, KindValue},
		{d.OptionalValueFlags, KindOptionalValue},
		{d.SwitchFlags, KindSwitch},
		{d.HelperFlags, KindHelper},
	}
	n := len(d.OneShotFlags)
	for _, l := range lists {
		n += len(l.flags)
	}
	b.a.kinds = make(map[string]FlagKind, n)
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
		case KindUnknown:
			a.kinds[f] = KindOneShot
		case KindValue, KindOptionalValue:
		default:
			return b.bad("one_shot_flags", "flag %q is also in %q", f, kindField[a.kinds[f]])
		}
		a.OneShot[f] = true
	}
	for f, vals := range d.OneShotValues {
		if a.kinds[f] != KindValue {
			return b.bad("one_shot_values", "flag %q must be in \"value_flags\"", f)
		}
		if len(vals) == 0 {
			return b.bad("one_shot_values", "flag %q has no values", f)
		}
		a.OneShotValues[f] = vals
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
		kinds       []FlagKind
	}{
		{"variadic_flags", `"value_flags" or "optional_value_flags"`, d.VariadicFlags, a.Variadic, []FlagKind{KindValue, KindOptionalValue}},
		{"cwd_flags", `"value_flags"`, d.CwdFlags, a.CwdFlags, []FlagKind{KindValue}},
		{"id_flags", `"strip_with_value" or "strip_optional_value"`, d.IDFlags, a.IDFlags, []FlagKind{KindStripValue, KindStripOptional}},
		{"latest_flags", `"strip" or "strip_optional_value"`, d.LatestFlags, a.LatestFlags, []FlagKind{KindStrip, KindStripOptional}},
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
		a.LatestValues[v] = true
	}
	return nil
}

func (b *builder) positionals(d Definition) error {
	switch d.Positionals {
	case "":
		b.a.Def.Positionals = PositionalPrompt
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
	fields := [...]string{SubSession: "session_subcommands", SubHelper: "helpers", SubOneShot: "one_shot_subcommands"}
	lists := [...][]string{SubSession: d.SessionSubcommands, SubHelper: d.Helpers, SubOneShot: d.OneShotSubcommands}
	a.subcommands = make([]Subcommand, 0, len(lists[0])+len(lists[1])+len(lists[2]))
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
				if slices.Equal(prev.Words, words) {
					return b.bad(fields[kind], "subcommand %q is also in %q", strings.Join(words, " "), fields[prev.Kind])
				}
			}
			a.subcommands = append(a.subcommands, Subcommand{Words: words, Kind: SubKind(kind)})
		}
	}
	slices.SortStableFunc(a.subcommands, func(x, y Subcommand) int { return len(y.Words) - len(x.Words) })
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
		b.a.IDFlags[f] = true
	}
	for _, w := range d.Latest {
		if isFlag(w) && b.a.kinds[w] == KindStrip {
			b.a.LatestFlags[w] = true
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
// configEnv checks ConfigEnv: names of letters, digits and '_', each
// perhaps ending in "*", never "*" alone (every variable).
func (b *builder) configEnv(d Definition) error {
	for _, p := range d.ConfigEnv {
		name := strings.TrimSuffix(p, "*")
		if name == "" || strings.TrimFunc(name, func(r rune) bool {
			return r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		}) != "" {
			return b.bad("config_env", "%q is not a variable name or a prefix of one (NAME or NAME_*)", p)
		}
	}
	return nil
}

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
func (a *Agent) checkTemplate(field string, t []string, wantID bool) error {
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
		case KindStrip, KindStripOptional:
		case KindStripValue:
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

func (a *Agent) isSession(words []string) bool {
	for _, s := range a.subcommands {
		if s.Kind == SubSession && slices.Equal(s.Words, words) {
			return true
		}
	}
	return false
}

// exactIDFlag is the flag that carries {id} in the exact template, if any.
func (a *Agent) exactIDFlag() string {
	for i, w := range a.Def.Exact {
		if w == idPlaceholder && i > 0 && strings.HasPrefix(a.Def.Exact[i-1], "-") {
			return a.Def.Exact[i-1]
		}
		if f, ok := strings.CutSuffix(w, "="+idPlaceholder); ok {
			return f
		}
	}
	return ""
}

func (a *Agent) expects(tok string) bool {
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

// matchSubcommand matches the longest subcommand path at the start of words.
func (a *Agent) MatchSubcommand(words []string) (Subcommand, int) {
	for _, s := range a.subcommands {
		if len(s.Words) <= len(words) && slices.Equal(s.Words, words[:len(s.Words)]) {
			return s, len(s.Words)
		}
	}
	return Subcommand{}, 0
}

func IsOption(w string) bool { return len(w) > 1 && w[0] == '-' }
