// Package grammar is a CLI's option syntax as its own --help states it: which
// options take a value, which an optional one, which none, and its
// subcommands. pkg/probe reads it from the installed CLI; pkg/agents
// recognises command lines with it.
package grammar

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Grammar is a CLI's option syntax as its own --help states it: which options
// take a value, which an optional one, which none, and its subcommands.
// Recognition uses it so a value is never taken for a prompt: the definitions'
// own lists are only the fallback for a CLI that is not installed here.
type Grammar struct {
	Value       []string `json:"value,omitempty"`
	Optional    []string `json:"optional,omitempty"`
	Variadic    []string `json:"variadic,omitempty"` // options of Value or Optional that take several words
	None        []string `json:"none,omitempty"`
	Subcommands []string `json:"subcommands,omitempty"`
}

// Version is part of the probe cache key: a better parser reparses.
// 2: commander's [a|b] is an optional value (claude 2.1.332's --cloud).
const Version = 2

// Arity is how many words an option takes, as a grammar says.
type Arity int

const (
	ArityUnknown  Arity = iota // in no grammar
	ArityNone                  // a switch
	ArityValue                 // always takes the next word (or =value)
	ArityOptional              // takes a value only when one follows (commander's [value])
)

// Arity of an option in g.
func (g *Grammar) Arity(flag string) Arity {
	switch {
	case g == nil:
		return ArityUnknown
	case slices.Contains(g.Value, flag):
		return ArityValue
	case slices.Contains(g.Optional, flag):
		return ArityOptional
	case slices.Contains(g.None, flag):
		return ArityNone
	}
	return ArityUnknown
}

// merge adds o's options and subcommands that g lacks: the help of a
// subcommand (codex resume --help) repeats or extends the root's options.
func (g *Grammar) merge(o Grammar) {
	known := map[string]bool{}
	for _, l := range [][]string{g.Value, g.Optional, g.None} {
		for _, f := range l {
			known[f] = true
		}
	}
	add := func(dst *[]string, src []string) {
		for _, f := range src {
			if !known[f] {
				*dst = append(*dst, f)
			}
		}
	}
	add(&g.Value, o.Value)
	add(&g.Optional, o.Optional)
	add(&g.None, o.None)
	for _, f := range o.Variadic {
		if !known[f] {
			g.Variadic = append(g.Variadic, f)
		}
	}
	for _, s := range o.Subcommands {
		if !slices.Contains(g.Subcommands, s) {
			g.Subcommands = append(g.Subcommands, s)
		}
	}
	g.sort()
}

// MergeHelp adds the grammar of one help run (args: "--help", or
// "resume --help"); it reports whether the text listed any option. The root
// help comes first; a subcommand's help adds its options, not its own
// subcommands.
func (g *Grammar) MergeHelp(prog string, args []string, text string) bool {
	pg := ParseHelp(prog, text)
	if len(args) > 1 {
		pg.Subcommands = nil
	}
	g.merge(pg)
	return len(pg.Value)+len(pg.Optional)+len(pg.None) > 0
}

func (g *Grammar) sort() {
	for _, l := range []*[]string{&g.Value, &g.Optional, &g.Variadic, &g.None, &g.Subcommands} {
		sort.Strings(*l)
		*l = slices.Compact(*l)
		if len(*l) == 0 {
			*l = nil
		}
	}
}

// helpREs are compiled on first use: only reading a CLI's help needs them,
// and every process would pay for them at start-up.
var helpREs = sync.OnceValue(func() *helpPatterns {
	return &helpPatterns{
		opt:        regexp.MustCompile(`^(--?[A-Za-z0-9][A-Za-z0-9_.-]*)(.*)$`),
		upper:      regexp.MustCompile(`^[A-Z][A-Z0-9_-]*(\.\.\.)?$`),
		yargsValue: regexp.MustCompile(`\[(string|number)\]|\[choices: `),
		yargsArray: regexp.MustCompile(`\[array\]`),
		yargsBool:  regexp.MustCompile(`\[(boolean|count)\]`),
		aliases:    regexp.MustCompile(`\[aliases?: ([^\]]*)\]`),
		section:    regexp.MustCompile(`^[A-Za-z][A-Za-z ]*:\s*$`),
		subword:    regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]*$`),
	}
})

type helpPatterns struct {
	// An option as help lists it: -m, --model, --allowedTools, -C.
	opt *regexp.Regexp
	// Placeholders: MODEL, FILE..., CONFIG_PROFILE_V2 (clap, click, argparse).
	upper *regexp.Regexp
	// yargs states the type at the end of an entry.
	yargsValue, yargsArray, yargsBool, aliases *regexp.Regexp
	section                                    *regexp.Regexp
	// A subcommand word, as pkg/agents accepts one in a definition.
	subword *regexp.Regexp
}

// cobraTypes are the value types pflag prints after a flag name.
var cobraTypes = map[string]bool{
	"string": true, "strings": true, "stringArray": true, "stringSlice": true, "stringToString": true,
	"int": true, "int32": true, "int64": true, "uint": true, "uint32": true, "uint64": true, "ints": true,
	"float": true, "float32": true, "float64": true, "duration": true, "bytesHex": true, "bytesBase64": true,
	"ip": true, "ipNet": true, "ipMask": true, "count": true, "value": true,
}

// maxOptionIndent: option lines start near the left margin; a line starting
// with "-" further right continues a description ("--append-system-prompt[-file],").
const maxOptionIndent = 8

// helpEntry is one option or subcommand line with its continuation lines.
type helpEntry struct {
	indent int
	head   string // up to the first run of two spaces: names and placeholders
	text   string // the whole entry, continuation lines included
}

// ParseHelp reads the option grammar out of a CLI's help text. It knows the
// styles of the agent CLIs: commander and yargs (node), clap (Rust), cobra
// (Go), click and argparse (Python). prog is the program's name, which yargs
// repeats before each subcommand.
func ParseHelp(prog, text string) Grammar {
	text = StripANSI(text)
	text = strings.ReplaceAll(text, "\t", "    ")
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")

	var g Grammar
	// click writes "Usage: prog [OPTIONS]", and its [a|b] is a choice the
	// option requires; commander writes "[options]", and its [a|b] is an
	// optional value of one of those kinds.
	click := strings.Contains(text, "[OPTIONS]")
	inCommands := false
	var cur *helpEntry
	var kind string // "option", "command"
	flush := func() {
		if cur == nil {
			return
		}
		switch kind {
		case "option":
			g.addOption(cur, click)
		case "command":
			g.addCommand(prog, cur)
		}
		cur, kind = nil, ""
	}
	for _, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		trimmed = strings.TrimRight(trimmed, " ")
		switch {
		case trimmed == "":
			continue
		case indent == 0 && helpREs().section.MatchString(trimmed):
			flush()
			h := strings.ToLower(trimmed)
			inCommands = strings.Contains(h, "command") && !strings.Contains(h, "option") && !strings.Contains(h, "flag")
			continue
		case indent == 0 && !strings.HasPrefix(trimmed, "-"):
			// Prose or a usage line ends any section.
			flush()
			inCommands = false
			continue
		}
		isOpt := indent <= maxOptionIndent && helpREs().opt.MatchString(trimmed) && !strings.HasPrefix(trimmed, "- ")
		switch {
		case isOpt:
			flush()
			cur, kind = &helpEntry{indent: indent, head: headOf(trimmed), text: trimmed}, "option"
		case inCommands && indent <= maxOptionIndent && (cur == nil || indent <= cur.indent):
			flush()
			cur, kind = &helpEntry{indent: indent, head: headOf(trimmed), text: trimmed}, "command"
		case cur != nil && indent > cur.indent:
			cur.text += " " + trimmed
		default:
			flush()
		}
	}
	flush()
	g.sort()
	return g
}

// headOf is the part of an entry line before its description: help
// formatters put at least two spaces between them.
func headOf(s string) string {
	if i := strings.Index(s, "  "); i >= 0 {
		return s[:i]
	}
	return s
}

func (g *Grammar) addOption(e *helpEntry, click bool) {
	var names []string
	arity, variadic := ArityNone, false
	note := func(a Arity, v bool) {
		if arity == ArityNone {
			arity = a
		}
		variadic = variadic || v
	}
	words := strings.Fields(strings.NewReplacer(", ", " ", ",", " ", " | ", " ", "|-", " -").Replace(e.head))
	for _, w := range words {
		if m := helpREs().opt.FindStringSubmatch(w); m != nil {
			names = append(names, m[1])
			if m[2] != "" {
				a, v, ok := placeholder(m[2], click)
				if !ok {
					break
				}
				note(a, v)
			}
			continue
		}
		if len(names) == 0 {
			return
		}
		a, v, ok := placeholder(w, click)
		if !ok {
			break // a description after a single space
		}
		note(a, v)
	}
	if len(names) == 0 {
		return
	}
	if arity == ArityNone {
		// yargs: "-m, --model   Model   [string]".
		switch {
		case helpREs().yargsArray.MatchString(e.text):
			arity, variadic = ArityValue, true
		case helpREs().yargsValue.MatchString(e.text) && !helpREs().yargsBool.MatchString(e.text):
			arity = ArityValue
		}
	}
	for _, n := range names {
		switch arity {
		case ArityValue:
			g.Value = append(g.Value, n)
		case ArityOptional:
			g.Optional = append(g.Optional, n)
		default:
			g.None = append(g.None, n)
		}
		if variadic && arity != ArityNone {
			g.Variadic = append(g.Variadic, n)
		}
	}
}

// placeholder classifies what follows an option name: <v>, [v], =<v>,
// [=v], MODEL, {a,b}, a cobra type; click says the help is click's.
func placeholder(p string, click bool) (a Arity, variadic, ok bool) {
	variadic = strings.Contains(p, "...")
	switch {
	case strings.HasPrefix(p, "[="), strings.HasPrefix(p, "[<"):
		return ArityOptional, variadic, true
	case strings.HasPrefix(p, "["):
		// click's [a|b|c] is a choice the option requires.
		if click && strings.Contains(p, "|") {
			return ArityValue, variadic, true
		}
		return ArityOptional, variadic, true
	case strings.HasPrefix(p, "="):
		return ArityValue, variadic, true
	case strings.HasPrefix(p, "<"), strings.HasPrefix(p, "{"):
		return ArityValue, variadic, true
	case helpREs().upper.MatchString(p):
		return ArityValue, variadic, true
	case cobraTypes[p]:
		return ArityValue, false, true
	}
	return ArityUnknown, false, false
}

func (g *Grammar) addCommand(prog string, e *helpEntry) {
	words := strings.Fields(e.head)
	// yargs: "gemini mcp   Manage MCP servers".
	if len(words) > 1 && words[0] == prog {
		words = words[1:]
	}
	if len(words) == 0 {
		return
	}
	var names []string
	for _, n := range strings.Split(words[0], "|") {
		n = strings.TrimSuffix(n, ",")
		if helpREs().subword.MatchString(n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return
	}
	if m := helpREs().aliases.FindStringSubmatch(e.text); m != nil {
		for _, al := range strings.Split(m[1], ",") {
			if al = strings.TrimSpace(al); helpREs().subword.MatchString(al) {
				names = append(names, al)
			}
		}
	}
	g.Subcommands = append(g.Subcommands, names...)
}

// ansiRE matches CSI sequences, private ones too (mastracode ends its help
// with ESC[?2004l ESC[<u ESC[>4;0m).
var ansiRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[[0-9;?<>=]*[ -/]*[@-~]`) })

// StripANSI removes the terminal escapes a CLI's help may hold.
func StripANSI(s string) string { return ansiRE().ReplaceAllString(s, "") }

// Shows reports whether help output shows tok. Flags are matched as
// tokens, never whole lines, since wrapping follows the terminal width;
// subcommand words must start a line or follow an alias ("plugin|plugins"),
// so prose ("to resume") does not count.
func Shows(out, tok string) bool {
	out = StripANSI(out)
	var re *regexp.Regexp
	if strings.HasPrefix(tok, "-") {
		re = regexp.MustCompile(`(^|[^A-Za-z0-9_-])` + regexp.QuoteMeta(tok) + `($|[^A-Za-z0-9_-])`)
	} else {
		re = regexp.MustCompile(`(?m)(^[ \t]*|[|,][ \t]*)` + regexp.QuoteMeta(tok) + `($|[ \t,|])`)
	}
	return re.MatchString(out)
}
