// Package recognize tells which agent a process or a typed command line
// runs, by the definitions (pkg/agents): the program, the flags kept and
// the ones stripped (a prompt, a secret, the resume itself), the id or
// "latest" it gives, and whether the program is the installed agent a
// record may run.
package recognize

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/grammar"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Command is an agent command line taken apart.
type Command struct {
	Agent string `json:"agent"`
	// Program is how the agent was started: ["/home/u/.local/bin/codex"] or
	// ["node", "/…/@anthropic-ai/claude-code/cli.js"].
	Program []string `json:"program"`
	// Env holds leading K=V assignments of a typed line. They are never part
	// of a resume argv; the rewriter decides what to do with them.
	Env []string `json:"env,omitempty"`
	// Flags are the kept words in their original order: flags, their values
	// and kept positionals (opencode's project path, after a "--" if the
	// line had one).
	Flags []string `json:"flags,omitempty"`

	// ID is the conversation id found in argv: from the exact template or an
	// id flag chosen up front (--session-id). IDFrom says where.
	ID     string `json:"id,omitempty"`
	IDFrom string `json:"id_from,omitempty"`
	// Latest: a "latest" flag was given (--continue, resume --last).
	Latest     bool   `json:"latest,omitempty"`
	LatestFrom string `json:"latest_from,omitempty"`
	// Dir is the directory a cwd flag moved the agent to (codex -C), as given.
	Dir string `json:"dir,omitempty"`

	// OneShot: a non-interactive run (claude -p, codex exec), not a
	// conversation; OneShotWhy names the flag or subcommand.
	OneShot    bool   `json:"one_shot,omitempty"`
	OneShotWhy string `json:"one_shot_why,omitempty"`
	// Helper: a helper subcommand or flag (claude mcp, --help).
	Helper    bool   `json:"helper,omitempty"`
	HelperWhy string `json:"helper_why,omitempty"`

	// PromptDropped: a prompt (positional or prompt flag) was removed.
	PromptDropped bool `json:"prompt_dropped,omitempty"`
	// SecretDropped: a secret flag and its value were removed.
	SecretDropped bool `json:"secret_dropped,omitempty"`
	// FlagsHidden: a process that renames itself showed only its name, so
	// its flags may be lost; the typed line is the better source.
	FlagsHidden bool `json:"flags_hidden,omitempty"`
	// Unsure says why a word could not be placed: it follows an option that
	// is in no grammar (neither the CLI's help nor the definition), so it may
	// be that option's value or a prompt. The word is kept with the option,
	// never separated from it, and the resume needs a key press.
	Unsure string `json:"unsure,omitempty"`

	// Raw are the words after the program as recognised, so a grammar read
	// later from the CLI's help can take them apart again (Reparse).
	Raw []string `json:"-"`
}

// genericSecretRE catches secret-looking long flags a definition does not
// list (aider's --anthropic-api-key): a key must never reach a saved
// session, and stripping an unlisted flag only costs a re-login. Compiled on
// first use, as are the other patterns only some commands need: every
// process would pay for them at start-up.
var genericSecretRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^--[a-z0-9_-]*(api[-_]?key|secret|password|passwd)[a-z0-9_-]*$`)
})

// Interpreters that run an agent's script: node /…/cli.js. Their options
// are accepted only from a short list of harmless ones, because the restore
// prompt runs what is recognised: `node --require /tmp/x.js /…/cli.js` must
// not pass as claude.
var (
	nodeOptionRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^--(max-old-space-size|max-semi-space-size|stack-size)=[0-9]+$|^--(no-warnings|no-deprecation|enable-source-maps|use-openssl-ca|use-system-ca)$`)
	})
	pythonOptions = map[string]bool{"-u": true, "-B": true, "-E": true, "-s": true, "-I": true, "-O": true, "-OO": true}
)

func interpreterOption(interp, w string) bool {
	if strings.HasPrefix(interp, "python") {
		return pythonOptions[w]
	}
	return nodeOptionRE().MatchString(w)
}

// matchProgram finds the agent an argv runs, the program words and the rest.
func matchProgram(s *agents.Set, argv []string) (*agents.Agent, []string, []string, bool) {
	if len(argv) == 0 {
		return nil, nil, nil, false
	}
	base := filepath.Base(argv[0])
	if agents.IsInterpreter(base) {
		k := 1
		for k < len(argv) && agents.IsOption(argv[k]) {
			if !interpreterOption(base, argv[k]) {
				return nil, nil, nil, false
			}
			k++
		}
		if k >= len(argv) {
			return nil, nil, nil, false
		}
		a := s.MatchPath(argv[k])
		if a == nil {
			return nil, nil, nil, false
		}
		return a, argv[:k+1], argv[k+1:], true
	}
	a := s.MatchPath(argv[0])
	if a == nil {
		return nil, nil, nil, false
	}
	return a, argv[:1], argv[1:], true
}

// Argv recognises a saved argv or one process's argv.
func Argv(s *agents.Set, argv []string) (Command, bool) {
	a, prog, rest, ok := matchProgram(s, argv)
	if !ok {
		return Command{}, false
	}
	c := Command{Agent: a.Name, Program: slices.Clone(prog), Raw: slices.Clone(rest)}
	if a.Def.RenamesProcess && len(argv) == 1 && !strings.Contains(argv[0], "/") {
		c.FlagsHidden = true
	}
	parse(a, &c, rest, nil)
	return c, true
}

// Reparse takes c apart again with g, the grammar its CLI's help gave (from
// a probe), which knows the CLI's options better than the definition does.
// A command without its raw words (read back from JSON) or without a
// grammar is returned as it is.
func Reparse(s *agents.Set, c Command, g *grammar.Grammar) Command {
	a, ok := s.Agent(c.Agent)
	if !ok || g == nil || c.Raw == nil {
		return c
	}
	return reparse(a, c, agents.CompileGrammar(g))
}

func reparse(a *agents.Agent, c Command, g *agents.CompiledGrammar) Command {
	out := Command{Agent: c.Agent, Program: c.Program, Env: c.Env, FlagsHidden: c.FlagsHidden, Raw: c.Raw}
	parse(a, &out, c.Raw, g)
	return out
}

// Reparser reparses commands with the grammar of their agent,
// grammarOf(agent), where there is one, compiling each agent's grammar
// once.
func Reparser(s *agents.Set, grammarOf func(agent string) *grammar.Grammar) func(Command) Command {
	compiled := map[string]*agents.CompiledGrammar{}
	return func(c Command) Command {
		a, ok := s.Agent(c.Agent)
		if !ok || c.Raw == nil {
			return c
		}
		g, seen := compiled[a.Name]
		if !seen {
			g = agents.CompileGrammar(grammarOf(a.Name))
			compiled[a.Name] = g
		}
		if g == nil {
			return c
		}
		return reparse(a, c, g)
	}
}

// Processes recognises a window's foreground processes. One window
// can hold several processes of one agent (codex's node wrapper and its
// native child, gemini re-spawning node): the agent counts once, and the
// outermost process is preferred unless a later one of the same agent shows
// more (a renamed parent shows none of its flags).
func Processes(s *agents.Set, procs [][]string) (Command, bool) {
	var best Command
	found := false
	for _, argv := range procs {
		c, ok := Argv(s, argv)
		if !ok {
			continue
		}
		if !found {
			best, found = c, true
			continue
		}
		if c.Agent == best.Agent && c.information() > best.information() {
			best = c
		}
	}
	return best, found
}

func (c Command) information() int {
	n := len(c.Flags)
	for _, b := range []bool{c.ID != "", c.Latest, c.OneShot, c.Helper, c.PromptDropped, c.SecretDropped} {
		if b {
			n++
		}
	}
	if c.FlagsHidden {
		n--
	}
	return n
}

// String recognises a typed command line. Only a single simple
// command whose words are all literal counts: pipes, lists, redirections,
// subshells, substitutions, parameter expansion, globs, tilde and brace
// expansion, background jobs... mean the line is not replayed by kittymux
// and stays as saved. Leading K=V assignments are kept when literal.
func String(s *agents.Set, line string) (Command, bool) {
	argv, env, ok := literalCommand(line)
	if !ok {
		return Command{}, false
	}
	c, ok := Argv(s, argv)
	if !ok {
		return Command{}, false
	}
	c.Env = env
	c.FlagsHidden = false
	return c, true
}

func literalCommand(line string) (argv, env []string, ok bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, nil, false
	}
	st := f.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || st.Disown || len(st.Redirs) > 0 || st.Semicolon.IsValid() {
		return nil, nil, false
	}
	call, isCall := st.Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Args) == 0 {
		return nil, nil, false
	}
	for _, as := range call.Assigns {
		if as.Append || as.Naked || as.Index != nil || as.Array != nil || as.Name == nil {
			return nil, nil, false
		}
		v := ""
		if as.Value != nil {
			if v, ok = literalWord(as.Value); !ok {
				return nil, nil, false
			}
		}
		env = append(env, as.Name.Value+"="+v)
	}
	for _, w := range call.Args {
		v, ok := literalWord(w)
		if !ok {
			return nil, nil, false
		}
		argv = append(argv, v)
	}
	return argv, env, true
}

// literalWord returns a word's value when it holds nothing a shell would
// expand.
func literalWord(w *syntax.Word) (string, bool) {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if hasUnquotedSpecial(p.Value) {
				return "", false
			}
		case *syntax.SglQuoted:
			if p.Dollar { // $'...' decodes escapes: not a plain word
				return "", false
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				if _, lit := q.(*syntax.Lit); !lit {
					return "", false
				}
			}
		default:
			return "", false
		}
	}
	// Fields, not Literal: it removes the backslash of "my\ dir". With
	// nothing to expand and no ReadDir it neither splits nor globs.
	fs, err := expand.Fields(nil, w)
	if err != nil || len(fs) != 1 {
		return "", false
	}
	return fs[0], true
}

// hasUnquotedSpecial finds glob, brace, tilde and history characters that
// are not escaped by a backslash.
func hasUnquotedSpecial(lit string) bool {
	for i := 0; i < len(lit); i++ {
		switch lit[i] {
		case '\\':
			i++
		case '*', '?', '[', ']', '{', '}', '~', '!':
			return true
		}
	}
	return false
}

// parse takes an agent's arguments apart into c. g, the grammar of the
// installed CLI's help, may be nil: the definition's lists are the fallback.
func parse(a *agents.Agent, c *Command, args []string, g *agents.CompiledGrammar) {
	p := &parser{a: a, c: c, g: g, args: slices.Clone(args), firstPositional: true}
	for p.i = 0; p.i < len(p.args); p.i++ {
		w := p.args[p.i]
		var done bool
		switch {
		case p.dashdash || !agents.IsOption(w):
			done = p.positional(w)
		case w == "--":
			p.dashdash = true
		default:
			done = p.option(w)
		}
		if done {
			return
		}
	}
}

// parser is one command line being taken apart: args[i] is the word at
// hand. A step that reports done has found the line is not a conversation
// (a helper, a one-shot run) and the rest is not read.
type parser struct {
	a    *agents.Agent
	c    *Command
	g    *agents.CompiledGrammar
	args []string
	i    int

	firstPositional bool
	idNext          string // the session subcommand just passed: the id may follow
	dashdash        bool   // after "--": every word is a positional
	dashdashKept    bool   // the "--" is in c.Flags
}

func (p *parser) keep(w ...string) { p.c.Flags = append(p.c.Flags, w...) }

// next returns the word after the one at hand when it is not an option.
func (p *parser) next() (string, bool) {
	if p.i+1 < len(p.args) && !agents.IsOption(p.args[p.i+1]) {
		return p.args[p.i+1], true
	}
	return "", false
}

// positional places a word that is not an option: a subcommand (the
// first), the id after a session subcommand, a kept path or a prompt.
func (p *parser) positional(w string) bool {
	if p.firstPositional && !p.dashdash {
		p.firstPositional = false
		if done, handled := p.subcommand(w); handled {
			return done
		}
	}
	if from := p.idNext; from != "" {
		p.idNext = ""
		if p.a.IsID(w) {
			noteID(p.a, p.c, from, w)
			return false
		}
	}
	switch p.a.Def.Positionals {
	case agents.PositionalPath:
		if !looksLikePath(w) {
			p.c.PromptDropped = true
			return false
		}
		if p.dashdash && !p.dashdashKept {
			p.keep("--")
			p.dashdashKept = true
		}
		p.keep(w)
	case agents.PositionalOneShot:
		p.c.OneShot, p.c.OneShotWhy = true, "a positional argument"
		return true
	default:
		p.c.PromptDropped = true
	}
	return false
}

// subcommand reads the subcommand the first positional w starts, if any
// (handled): a helper or one-shot one ends the line (done), a session one
// is stripped and may be followed by the id.
func (p *parser) subcommand(w string) (done, handled bool) {
	if sub, n := p.a.MatchSubcommand(p.args[p.i:]); n > 0 {
		path := strings.Join(sub.Words, " ")
		switch sub.Kind {
		case agents.SubHelper:
			p.c.Helper, p.c.HelperWhy = true, path
			return true, true
		case agents.SubOneShot:
			p.c.OneShot, p.c.OneShotWhy = true, path
			return true, true
		case agents.SubSession:
			p.i += n - 1
			p.idNext = path
			return false, true
		}
	}
	if p.g != nil && p.g.Subs[w] {
		// A subcommand of the CLI the definition does not know
		// (codex fork): not a conversation kittymux can resume.
		p.c.Helper, p.c.HelperWhy = true, w+" (a subcommand in its help)"
		return true, true
	}
	return false, false
}

// option reads the option w and the words it takes.
func (p *parser) option(w string) bool {
	a, c := p.a, p.c
	name, value, attached := w, "", false
	if strings.HasPrefix(w, "--") {
		name, value, attached = strings.Cut(w, "=")
	}
	kind := a.Kind(name, p.g)
	if kind == agents.KindUnknown && !strings.HasPrefix(w, "--") && len(w) > 2 {
		// -mopus is -m opus; -cd is -c -d when both are known.
		if k := a.Kind(w[:2], p.g); k.TakesValue() || k == agents.KindOptionalValue || k == agents.KindStripOptional {
			name, value, attached, kind = w[:2], w[2:], true, k
		} else if split, ok := splitCluster(a, w, p.g); ok {
			p.args = slices.Concat(p.args[:p.i], split, p.args[p.i+1:])
			p.i--
			return false
		}
	}
	if p.endsLine(name, value, attached, kind) {
		return true
	}
	if kind == agents.KindUnknown && strings.HasPrefix(name, "--") && genericSecretRE().MatchString(name) {
		kind = agents.KindSecret
	}
	switch kind {
	case agents.KindSecret, agents.KindPrompt:
		// The value goes whatever it looks like: a prompt or a key
		// must never be replayed, even one starting with "-".
		if !attached && p.i+1 < len(p.args) {
			p.i++
		}
		if kind == agents.KindSecret {
			c.SecretDropped = true
		} else {
			c.PromptDropped = true
		}
	case agents.KindStripValue, agents.KindStripOptional, agents.KindStrip:
		p.strip(name, value, attached, kind)
	case agents.KindValue, agents.KindOptionalValue, agents.KindSwitch:
		p.keepOption(w, name, value, attached, kind)
	default:
		p.unknown(w, name, attached)
	}
	return false
}

// endsLine reports whether option name makes the line a helper or a
// one-shot run, and notes why.
func (p *parser) endsLine(name, value string, attached bool, kind agents.FlagKind) bool {
	a, c := p.a, p.c
	if agents.AlwaysHelper[name] || kind == agents.KindHelper {
		c.Helper, c.HelperWhy = true, name
		return true
	}
	if a.OneShot[name] {
		c.OneShot, c.OneShotWhy = true, name
		return true
	}
	if vals, ok := a.OneShotValues[name]; ok {
		v := value
		if !attached {
			v, _ = p.next()
		}
		if slices.Contains(vals, v) {
			c.OneShot, c.OneShotWhy = true, name+" "+v
			return true
		}
	}
	return false
}

// strip drops a resume flag, with its value where it takes one, noting the
// id or the "latest" it gives.
func (p *parser) strip(name, value string, attached bool, kind agents.FlagKind) {
	a, c := p.a, p.c
	switch kind {
	case agents.KindStripValue:
		if !attached {
			if v, ok := p.next(); ok {
				value, attached = v, true
				p.i++
			}
		}
		if attached && a.IDFlags[name] {
			noteID(a, c, name, value)
		}
	case agents.KindStripOptional:
		if !attached {
			if v, ok := p.next(); ok && (a.LatestValues[v] || (a.IDFlags[name] && a.IsID(v))) {
				value, attached = v, true
				p.i++
			}
		}
		switch {
		case attached && a.IDFlags[name]:
			noteID(a, c, name, value)
		case !attached && a.LatestFlags[name]:
			noteLatest(a, c, name)
		}
	case agents.KindStrip:
		if a.LatestFlags[name] {
			noteLatest(a, c, name)
		}
	}
}

// keepOption keeps a flag the grammar or the definition knows, with the
// value it takes: a value flag's always, an optional one's when a word that
// is not an option follows, a variadic flag's every such word.
func (p *parser) keepOption(w, name, value string, attached bool, kind agents.FlagKind) {
	p.keep(w)
	if kind != agents.KindSwitch && !attached {
		if v, ok := p.next(); ok {
			p.keep(v)
			p.i++
			value = v
			p.moreValues(name)
		}
	}
	if kind == agents.KindValue && p.a.CwdFlags[name] {
		p.c.Dir = value
	}
}

// moreValues keeps the further values of a variadic flag, up to the next
// option: claude --add-dir a b, copilot --allow-tool [<tools>...].
func (p *parser) moreValues(name string) {
	if !p.a.Variadic[name] && (p.g == nil || !p.g.Variadic[name]) {
		return
	}
	for {
		v, ok := p.next()
		if !ok {
			return
		}
		p.keep(v)
		p.i++
	}
}

// unknown keeps an option that is in no grammar. The next word may be its
// value or a prompt: never separate them, and let the user see the command.
func (p *parser) unknown(w, name string, attached bool) {
	p.keep(w)
	if attached {
		return
	}
	if v, ok := p.next(); ok {
		p.keep(v)
		p.i++
		if p.c.Unsure == "" {
			p.c.Unsure = fmt.Sprintf("%s is in no grammar of %s, so %q after it may be its value or a prompt: kept as its value", name, p.a.Name, v)
		}
	}
}

// splitCluster splits -cd into -c -d when every letter is a known flag and
// only the last may take a value (as commander and clap read it).
func splitCluster(a *agents.Agent, w string, g *agents.CompiledGrammar) ([]string, bool) {
	letters := w[1:]
	out := make([]string, 0, len(letters))
	for j, r := range letters {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return nil, false
		}
		f := "-" + string(r)
		k := a.Kind(f, g)
		if k == agents.KindUnknown {
			return nil, false
		}
		if j < len(letters)-1 && (k.TakesValue() || k == agents.KindOptionalValue || k == agents.KindStripOptional) {
			return nil, false
		}
		out = append(out, f)
	}
	return out, true
}

func noteID(a *agents.Agent, c *Command, from, value string) {
	if a.LatestValues[value] {
		noteLatest(a, c, from+" "+value)
		return
	}
	// The first id wins: a second one on the same line is a typo the agent
	// would reject anyway.
	if c.ID == "" && a.IsID(value) {
		c.ID, c.IDFrom = value, from
	}
}

func noteLatest(a *agents.Agent, c *Command, from string) {
	if !c.Latest {
		c.Latest, c.LatestFrom = true, from
	}
}

// looksLikePath tells a project path from a prompt typed where a path goes:
// whitespace without a slash is a sentence, not a directory.
func looksLikePath(w string) bool {
	if strings.ContainsAny(w, "\n\r\x00") {
		return false
	}
	if strings.Contains(w, "/") {
		return true
	}
	return !strings.ContainsAny(w, " \t")
}
