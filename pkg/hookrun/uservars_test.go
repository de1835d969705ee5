package hookrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUserVarsOnlyWhereKittyHasThem: a hook in kitty 0.26.5 (its
// KITTY_INSTALLATION_DIR says so) records the id and asks kitty nothing;
// in kitty 0.48.2, or one whose version cannot be read, it sets the
// window's user vars.
func TestUserVarsOnlyWhereKittyHasThem(t *testing.T) {
	install := func(version string) string {
		dir := t.TempDir()
		if version == "" {
			return dir
		}
		if err := os.MkdirAll(filepath.Join(dir, "kitty"), 0o755); err != nil {
			t.Fatal(err)
		}
		// As kitty's own kitty/constants.py has it.
		py := "appname: str = 'kitty'\nversion: Version = Version(" + version + ")\n"
		if err := os.WriteFile(filepath.Join(dir, "kitty", "constants.py"), []byte(py), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, tc := range []struct {
		name    string
		install string
		asked   bool
	}{
		{"kitty 0.26.5", install("0, 26, 5"), false},
		{"kitty 0.48.2", install("0, 48, 2"), true},
		{"kitty 0.30.0", install("0, 30, 0"), true},
		{"no constants.py", install(""), true},
		{"no KITTY_INSTALLATION_DIR", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, _, calls := setup(t, map[string]string{"KITTY_INSTALLATION_DIR": tc.install})
			res, err := Run(t.Context(), o, "claude", "SessionStart", strings.NewReader(payloads["claude"]["SessionStart"]))
			if err != nil {
				t.Fatal(err)
			}
			if recs := readJournal(t, o); len(recs) != 1 || recs[0].ID != res.ID {
				t.Errorf("journal: %+v", recs)
			}
			if asked := len(*calls) > 0; asked != tc.asked {
				t.Errorf("kitty asked to set user vars: %v, want %v (%q)", asked, tc.asked, *calls)
			}
		})
	}
}
