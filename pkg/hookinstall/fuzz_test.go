package hookinstall

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzInstallUninstall: an agent's settings file is the user's, in whatever
// shape. Whatever it holds, installing kittymux's hooks and then removing
// them gives back what removing them alone gives (for a file without
// kittymux's hooks: the file as it was, whitespace aside); installing twice
// changes nothing the second time; and a file kittymux cannot edit is left
// byte for byte as it was.
func FuzzInstallUninstall(f *testing.F) {
	for i, fixture := range []string{"claude-settings.json", "codex-hooks.json", "gemini-settings.json", "qodercli-settings.json", "droid-settings.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", fixture))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), data)
	}
	f.Add(uint8(0), []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/usr/bin/kittymux hook claude Stop"}]}]}}`))
	f.Add(uint8(0), []byte(`{"hooks": {}}`))
	f.Add(uint8(0), []byte(`{"hooks": []}`))
	f.Add(uint8(1), []byte(`{"a": 1, "a": 2}`))
	f.Add(uint8(2), []byte(`// comment
{}`))
	f.Add(uint8(0), []byte(" \n"))
	names := Names()
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		a, _ := Find(names[int(which)%len(names)])
		home := t.TempDir()
		env := Env{Getenv: func(string) string { return "" }, Home: home, Exe: "/opt/kitty mux/bin/kittymux"}
		path := a.Settings(env.Getenv, home)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		put := func(b []byte) {
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		get := func() []byte {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}

		// Removing alone.
		put(data)
		_, uerr := Uninstall(a, env)
		removed := get()
		if uerr != nil && !bytes.Equal(removed, data) {
			t.Fatalf("a failed uninstall (%v) changed the file:\n%q\nto\n%q", uerr, data, removed)
		}

		put(data)
		if _, err := Install(a, env); err != nil {
			if b := get(); !bytes.Equal(b, data) {
				t.Fatalf("a failed install (%v) changed the file:\n%q\nto\n%q", err, data, b)
			}
			return
		}
		installed := get()
		if ch, err := Install(a, env); err != nil || ch.Changed {
			t.Fatalf("a second install: changed %v, %v\n%s", ch.Changed, err, get())
		}
		if st := StatusOf(a, env); st.State != Installed {
			t.Fatalf("after install the status is %s (%s):\n%s", st.State, st.Why, installed)
		}
		if _, err := Uninstall(a, env); err != nil {
			t.Fatalf("uninstall after install: %v\n%s", err, installed)
		}
		if uerr != nil {
			t.Fatalf("uninstall alone failed (%v) but not after install", uerr)
		}
		if got := get(); !sameJSON(got, removed) {
			t.Fatalf("install then uninstall gives\n%s\nbut uninstall alone\n%s\n(original %q)", got, removed, data)
		}
	})
}

// sameJSON: equal documents, whitespace aside, and an empty event or an
// empty "hooks" the same as none. kittymux removes what its uninstall left
// empty, and cannot tell an event (or "hooks") the user left empty before
// the install from one the install made: to every agent both mean no hook.
func sameJSON(a, b []byte) bool {
	if len(bytes.TrimSpace(a)) == 0 || len(bytes.TrimSpace(b)) == 0 {
		return len(bytes.TrimSpace(a)) == len(bytes.TrimSpace(b))
	}
	var x, y bytes.Buffer
	return json.Compact(&x, withoutEmptyHooks(a)) == nil && json.Compact(&y, withoutEmptyHooks(b)) == nil &&
		bytes.Equal(x.Bytes(), y.Bytes())
}

func withoutEmptyHooks(data []byte) []byte {
	top, err := parseObject(data)
	if err != nil {
		return data
	}
	hooks, err := top.object("hooks")
	if err != nil {
		return data
	}
	var kept object
	for _, m := range hooks {
		var c bytes.Buffer
		if json.Compact(&c, m.Val) == nil && (c.String() == "[]" || c.String() == "{}") {
			continue
		}
		kept = append(kept, m)
	}
	if len(kept) == 0 {
		top = top.del("hooks")
	} else {
		top = top.set("hooks", kept.marshal())
	}
	out, err := top.format()
	if err != nil {
		return data
	}
	return out
}
