package root

import (
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
)

// TestUsageSameAsTemplate: usage writes, for every command, hidden ones
// and cobra's own too, what cobra's default usage template, changed as
// usage says, renders.
func TestUsageSameAsTemplate(t *testing.T) {
	f, _, _ := factorytest.New(t)
	fast := NewCmdRoot(f)
	slow := NewCmdRoot(f)
	slow.SetUsageFunc(nil)
	tmpl := slow.UsageTemplate()
	changed := strings.Replace(tmpl, "Usage:{{if .Runnable}}", "Usage:{{if and .Runnable (not .HasAvailableSubCommands)}}", 1)
	if changed == tmpl {
		t.Fatal("cobra's usage template no longer starts as usage expects: write usage anew")
	}
	slow.SetUsageTemplate(changed)
	var walk func(a, b *cobra.Command)
	n := 0
	walk = func(a, b *cobra.Command) {
		n++
		if got, want := a.UsageString(), b.UsageString(); got != want {
			t.Errorf("%s: usage\n%s\nthe template\n%s", a.CommandPath(), got, want)
		}
		as, bs := a.Commands(), b.Commands()
		if len(as) != len(bs) {
			t.Fatalf("%s: %d and %d commands", a.CommandPath(), len(as), len(bs))
		}
		for i := range as {
			walk(as[i], bs[i])
		}
	}
	walk(fast, slow)
	if n < 30 {
		t.Errorf("only %d commands compared", n)
	}
}

// TestCommandsNameTheTree: the table Main picks a command line's top-level
// command from names every command of the tree, by its own name, so that
// a command line that names one runs it alone.
func TestCommandsNameTheTree(t *testing.T) {
	f, _, _ := factorytest.New(t)
	var names []string
	for _, c := range NewCmdRoot(f).Commands() {
		if c.Name() != "help" && c.Name() != "completion" {
			names = append(names, c.Name())
		}
		if len(c.Aliases) > 0 {
			t.Errorf("%s has aliases %q: only would not know them", c.Name(), c.Aliases)
		}
	}
	var table []string
	for _, c := range commands {
		table = append(table, c.name)
		cmd := newCmdRoot(f, c.name)
		if subs := cmd.Commands(); len(subs) != 1 || subs[0].Name() != c.name {
			t.Errorf("only %q: the root holds %d commands, the first %q", c.name, len(subs), subs[0].Name())
		}
		if got := only([]string{c.name, "--help"}); got != c.name {
			t.Errorf("only(%s --help) = %q", c.name, got)
		}
	}
	sort.Strings(table) // as cobra lists them
	if strings.Join(names, " ") != strings.Join(table, " ") {
		t.Errorf("the tree's commands %q, the table's %q", names, table)
	}
	for _, args := range [][]string{nil, {"--to", "unix:/x", "version"}, {"help", "version"}, {"completion", "bash"}, {"__complete", "vers"}, {"versio"}} {
		if got := only(args); got != "" {
			t.Errorf("only(%q) = %q, want the whole tree", args, got)
		}
	}
}
