package restore_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/restore"
	"github.com/kittymux/kittymux/pkg/paths"
	storage "github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// Outside kitty, restore starts a new kitty on the file, if that kitty can
// load it.
func TestRestoreOutsideKitty(t *testing.T) {
	for _, c := range []struct {
		version string
		wantErr string
	}{
		{"0.48.2", ""},
		{"0.26.5", "needs kitty 0.43.0 or newer to load; "},
	} {
		t.Run(c.version, func(t *testing.T) {
			tmp := t.TempDir()
			bin := filepath.Join(tmp, "bin")
			os.MkdirAll(bin, 0o755)
			kittyPath := filepath.Join(bin, "kitty")
			os.WriteFile(kittyPath, []byte("#!/bin/sh\necho 'kitty "+c.version+" created by Kovid Goyal'\n"), 0o755)
			f, out, _ := factorytest.New(t)
			f.IO.ErrOut = out
			f.Paths = paths.Under(tmp)
			f.Getenv = func(k string) string { return map[string]string{"PATH": bin}[k] }
			path, err := storage.Publish(f.Paths, "work", []byte("new_tab\nlaunch\n"))
			if err != nil {
				t.Fatal(err)
			}
			var started []string
			err = restore.Restore(t.Context(), restore.RestoreOptions{Name: "last",
				StartKitty: func(k, s string) error { started = append(started, k, s); return nil }}.From(f))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || started != nil {
					t.Fatalf("err = %v, started %v", err, started)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(started) != 2 || started[0] != kittyPath || started[1] != path {
				t.Errorf("started %v, want %s on %s", started, kittyPath, path)
			}
			// A save of one OS window starts with new_os_window; a new kitty
			// would open a stray OS window for the empty section before it,
			// so it loads a copy without that line.
			one := "\nnew_os_window\nnew_tab\nlaunch\n"
			path, _ = storage.Publish(f.Paths, "one", []byte(one))
			started = nil
			if err := restore.Restore(t.Context(), restore.RestoreOptions{Name: "one",
				StartKitty: func(k, s string) error { started = append(started, k, s); return nil }}.From(f)); err != nil {
				t.Fatal(err)
			}
			if len(started) != 2 || started[1] == path {
				t.Fatalf("started %v", started)
			}
			if b, _ := os.ReadFile(started[1]); string(b) != "\nnew_tab\nlaunch\n" {
				t.Errorf("copy for the new kitty: %q", b)
			}
			if b, _ := os.ReadFile(path); string(b) != one {
				t.Errorf("the published file changed: %q", b)
			}
		})
	}
}

// withKitty is a factory whose PATH has only a kitty of version, and whose
// state is a fresh directory.
func withKitty(t *testing.T, version string) (*factory.Factory, *kittytest.Buffer) {
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "kitty"), []byte("#!/bin/sh\necho 'kitty "+version+" created by Kovid Goyal'\n"), 0o755)
	f, out, _ := factorytest.New(t)
	f.Paths = paths.Under(tmp)
	f.Getenv = func(k string) string { return map[string]string{"PATH": bin}[k] }
	return f, out
}

// The restore names each plain window that prints a kept screen history,
// and says so of one whose file is gone; an agent window is not one.
func TestRestoreNamesHistoryWindows(t *testing.T) {
	f, out := withKitty(t, "0.48.2")
	dir := storage.HistoryDir(f.Paths, "work")
	show := func(id, cwd string) string {
		return "cd " + cwd + "\nlaunch 'kitty-unserialize-data={\"id\": " + id + ", \"cmd_at_shell_startup\": [\"/opt/kittymux-resume\", \"--show-history\", \"" + dir + "/s-" + id + ".txt\"]}'\n"
	}
	save := "new_tab\n" + show("1", "/home/u/api") + show("2", "/home/u/\x1b]2;web") +
		"launch 'kitty-unserialize-data={\"id\": 3, \"cmd_at_shell_startup\": [\"/opt/kittymux-resume\", \"--agent\", \"claude\", \"--\", \"claude\"]}'\n"
	if _, err := storage.Publish(f.Paths, "work", []byte(save)); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "s-1.txt"), []byte("make: ok\n"), 0o600)
	if err := restore.Restore(t.Context(), restore.RestoreOptions{Name: "work",
		StartKitty: func(string, string) error { return nil }}.From(f)); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"\n  shell                /home/u/api  prints its screen history, kept at ",
		"\n  shell                /home/u/]2;web  its screen history is gone\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the restore does not say %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "shell") != 2 {
		t.Errorf("the restore names other windows as shells:\n%s", got)
	}
}

// TestRestoreChosen: a save chosen before (the offer's, its closed windows
// left out already) is loaded as it was chosen: not looked up again by its
// name, which here names no save at all.
func TestRestoreChosen(t *testing.T) {
	f, out := withKitty(t, "0.48.2")
	path, err := storage.Publish(f.Paths, "work", []byte("new_tab\nlaunch\n"))
	if err != nil {
		t.Fatal(err)
	}
	var started []string
	err = restore.Restore(t.Context(), restore.RestoreOptions{Name: "gone",
		Chosen:     &restore.Chosen{Info: storage.Info{Name: "work", Path: path}},
		StartKitty: func(k, s string) error { started = append(started, s); return nil }}.From(f))
	if err != nil {
		t.Fatal(err)
	}
	if len(started) != 1 || started[0] != path || !strings.Contains(out.String(), "restored work in ") {
		t.Errorf("started %v, said %q", started, out)
	}
}
