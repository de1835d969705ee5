package sessionfile

import (
	"slices"
	"testing"
)

// TestLaunchCommand: a window runs the list its shell runs at startup when
// kitty saved one, else its argv.
func TestLaunchCommand(t *testing.T) {
	argv := []string{"claude", "--model", "opus"}
	list := []string{"/opt/kittymux-resume", "--agent", "claude"}
	for _, tc := range []struct {
		name string
		l    Launch
		want []string
	}{
		{"argv", Launch{Argv: argv}, argv},
		{"no startup command", Launch{Argv: argv, Unserialize: &UnserializeData{}}, argv},
		{"a startup string", Launch{Argv: argv, Unserialize: &UnserializeData{CmdAtShellStartup: CmdAtShellStartup{Set: true, String: "claude"}}}, argv},
		{"a startup list", Launch{Argv: argv, Unserialize: &UnserializeData{CmdAtShellStartup: CmdAtShellStartup{Set: true, IsList: true, List: list}}}, list},
	} {
		if got := tc.l.Command(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
