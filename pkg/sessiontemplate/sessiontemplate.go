// Package sessiontemplate makes a session from a template (`sessions new`): the
// shipped templates and the user's own (a file in
// $XDG_CONFIG_HOME/kittymux/templates wins over a shipped one of its name),
// filled in with the session's name, directory and agent.
package sessiontemplate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/userfile"
	"github.com/kittymux/kittymux/templates"
)

// Sentinel errors.
var (
	ErrUnknownTemplate = errors.New("unknown template")
	ErrBadValue        = errors.New("cannot be written into a session file")
)

// Shipped is Template.Source for a template that ships with kittymux.
const Shipped = "shipped"

// maxTemplate bounds a user template: it is a handful of lines.
const maxTemplate = 1 << 20

// Template is one template. Field names are stable (`templates --json`).
type Template struct {
	Name string `json:"name"`
	// Source is Shipped or the path of the user's file.
	Source string `json:"source"`
	// Overrides: a user template that replaces a shipped one of its name.
	Overrides bool `json:"overrides,omitempty"`
	// About is the template's first comment, for people.
	About string `json:"about,omitempty"`
	// NeedsAgent: the template names {agent}.
	NeedsAgent bool   `json:"needs_agent"`
	Data       []byte `json:"-"`
}

// List returns every template by name, a user's winning over a shipped
// one. A user template directory that cannot be read is an error; a file
// there that is not a template (a directory, a bad name) is left out.
func List(p paths.Paths) ([]Template, error) {
	byName := map[string]Template{}
	for _, name := range templates.Names() {
		data, err := templates.Read(name)
		if err != nil {
			return nil, err
		}
		byName[name] = newTemplate(name, Shipped, data)
	}
	dir := p.UserTemplatesDir()
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read templates in %s: %w", dir, err)
	}
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), templates.Ext)
		if !ok || strings.HasPrefix(name, ".") || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := readSmall(path)
		if err != nil {
			return nil, err
		}
		_, shipped := byName[name]
		t := newTemplate(name, path, data)
		t.Overrides = shipped
		byName[name] = t
	}
	out := make([]Template, 0, len(byName))
	for _, t := range byName {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func readSmall(path string) ([]byte, error) {
	data, err := userfile.Read(path, maxTemplate)
	if err != nil {
		return nil, fmt.Errorf("read template: %w", err)
	}
	return data, nil
}

func newTemplate(name, source string, data []byte) Template {
	t := Template{Name: name, Source: source, Data: data, NeedsAgent: strings.Contains(string(data), "{agent}")}
	for _, l := range strings.Split(string(data), "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(l), "#"); ok {
			// A comment that names the template ("kittymux template
			// "duo": …", as the shipped ones and the sessions made from
			// them start) says the rest: the name is shown beside it.
			c = strings.TrimSpace(c)
			if rest, ok := strings.CutPrefix(c, fmt.Sprintf("kittymux template %q:", name)); ok {
				c = strings.TrimSpace(rest)
			}
			t.About = kitty.Printable(c)
			break
		}
	}
	return t
}

// Names are the names of ts.
func Names(ts []Template) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// Find returns the template name; an unknown name's error lists those
// there are.
func Find(ts []Template, name string) (Template, error) {
	for _, t := range ts {
		if t.Name == name {
			return t, nil
		}
	}
	return Template{}, fmt.Errorf("%w %q; templates: %s", ErrUnknownTemplate, name, strings.Join(Names(ts), ", "))
}

// Values fill a template's placeholders.
type Values struct {
	Name string // the session's name: {name}
	Cwd  string // an absolute directory: {cwd}
	// Agent is the agent's program as typed at a shell (`claude`): {agent}.
	Agent string
}

// Render fills t. A placeholder becomes one shell-quoted word on a launch
// line, which kitty splits like a shell; on every other line kitty takes
// the rest of the line as it is (0.43 and newer expand $VAR there, 0.26.5
// does not), so a value goes in only when it reads the same both ways. The
// result must parse as a session file.
func Render(t Template, v Values) ([]byte, error) {
	if t.NeedsAgent && v.Agent == "" {
		return nil, fmt.Errorf("template %s needs an agent", t.Name)
	}
	vals := map[string]string{"{name}": v.Name, "{cwd}": v.Cwd, "{agent}": v.Agent}
	lines := strings.SplitAfter(string(t.Data), "\n")
	var b strings.Builder
	for _, line := range lines {
		fields := strings.Fields(line)
		isLaunch := len(fields) > 0 && fields[0] == "launch"
		var err error
		out := placeholderRE().ReplaceAllStringFunc(line, func(ph string) string {
			val := vals[ph]
			if isLaunch {
				q, qerr := syntax.Quote(val, syntax.LangPOSIX)
				if qerr != nil && err == nil {
					err = fmt.Errorf("%s %q %w: %v", ph, val, ErrBadValue, qerr)
				}
				return q
			}
			if why := rawProblem(val); why != "" && err == nil {
				err = fmt.Errorf("%s %q %w: %s", ph, val, ErrBadValue, why)
			}
			return val
		})
		if err != nil {
			return nil, err
		}
		b.WriteString(out)
	}
	data := []byte(b.String())
	if _, err := sessionfile.Parse(data); err != nil {
		return nil, fmt.Errorf("template %s (%s): %w", t.Name, t.Source, err)
	}
	return data, nil
}

func rawProblem(s string) string {
	switch {
	case s == "":
		return "it is empty"
	case kitty.Printable(s) != s || strings.ContainsAny(s, "\u0085\u2028\u2029"):
		return "it holds control characters"
	case strings.Contains(s, "$"):
		return "it holds a '$', which kitty versions read differently"
	case strings.TrimSpace(s) != s:
		return "it starts or ends with whitespace, which kitty strips"
	}
	return ""
}

var placeholderRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{(name|cwd|agent)\}`) })
