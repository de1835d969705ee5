package root

import (
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
