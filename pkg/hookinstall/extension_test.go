package hookinstall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtension: pi's extension and opencode's plugin are files of
// kittymux's own: install
// writes it with kittymux's path, again changes nothing, another kittymux
// makes it outdated, uninstall removes it; a file of the user's at that
// name is neither replaced nor removed.
func TestExtension(t *testing.T) {
	for name, file := range map[string]string{"pi": ".pi/agent/extensions/kittymux.ts",
		"opencode": ".config/opencode/plugins/kittymux.js"} {
		t.Run(name, func(t *testing.T) { testExtension(t, name, file) })
	}
}

func testExtension(t *testing.T, name, file string) {
	a, ok := Find(name)
	if !ok || a.Extension == nil {
		t.Fatalf("%s has no extension", name)
	}
	home := t.TempDir()
	exe := "/opt/kitty mux/bin/kittymux"
	env := Env{Getenv: func(string) string { return "" }, Home: home, Exe: exe}
	path := filepath.Join(home, file)
	if st := StatusOf(a, env); st.State != Missing || st.File != path {
		t.Fatalf("before install: %+v", st)
	}
	if ch, err := Install(a, env); err != nil || !ch.Changed || ch.File != path {
		t.Fatalf("install: %+v %v", ch, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `const KITTYMUX = "/opt/kitty mux/bin/kittymux";`) ||
		strings.Contains(string(data), "__KITTYMUX__") || !strings.Contains(string(data), `"hook", "`+name+`", event`) {
		t.Errorf("the extension:\n%s", data)
	}
	if st := StatusOf(a, env); st.State != Installed || st.Version != Version {
		t.Errorf("after install: %+v", st)
	}
	if ch, err := Install(a, env); err != nil || ch.Changed {
		t.Errorf("install again: %+v %v", ch, err)
	}
	other := env
	other.Exe = "/usr/bin/kittymux"
	if st := StatusOf(a, other); st.State != Outdated || !strings.Contains(st.Why, "/opt/kitty mux/bin/kittymux") {
		t.Errorf("for another kittymux: %+v", st)
	}
	if err := os.WriteFile(path, append(data, "// changed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if st := StatusOf(a, env); st.State != Outdated {
		t.Errorf("after an edit: %+v", st)
	}
	if ch, err := Uninstall(a, env); err != nil || !ch.Changed {
		t.Errorf("uninstall: %+v %v", ch, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("after uninstall: %v", err)
	}

	// The user's own file at that name.
	mine := []byte("export default function (pi) {}\n")
	if err := os.WriteFile(path, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	if st := StatusOf(a, env); st.State != Missing || st.Why == "" {
		t.Errorf("the user's file: %+v", st)
	}
	if _, err := Install(a, env); err == nil {
		t.Errorf("install over the user's file succeeded")
	}
	if ch, err := Uninstall(a, env); err != nil || ch.Changed {
		t.Errorf("uninstall of the user's file: %+v %v", ch, err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(mine) {
		t.Errorf("the user's file became %q", got)
	}
}
