// Package templates ships the session templates of `kittymux sessions new`:
// hand-written kitty session files that use only the basic directives
// (new_tab, layout, cd, launch), so kitty 0.26.5 loads them too.
//
// {name}, {cwd} and {agent} are placeholders that the command fills in, each
// as one shell-quoted word.
package templates

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.kitty-session
var files embed.FS

// Ext is the extension of a template file.
const Ext = ".kitty-session"

// Names lists the shipped templates.
func Names() []string {
	ents, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), Ext))
	}
	sort.Strings(out)
	return out
}

// Read returns a shipped template.
func Read(name string) ([]byte, error) {
	return files.ReadFile(name + Ext)
}
