package resumerecord_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

const uuid = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"

var sealKey = bytes.Repeat([]byte{1}, resumerecord.KeySize)

func fullRecord() resumerecord.Record {
	return resumerecord.Record{Agent: "claude", Mode: "exact", ID: uuid, Direct: true, FromShell: true, Tab: "api work",
		Dir: "/home/u/code/api", Env: []string{"CLAUDE_CONFIG_DIR=/c", "A=1"}, Exe: []string{"/opt/claude"},
		Origin: "2026-12-01T09:00:00.5Z|unix:/tmp/kitty-7|7|2|42",
		Argv:   []string{"/opt/claude", "--model", "sonnet", "--resume", uuid}}
}

func TestSealVerify(t *testing.T) {
	r := fullRecord().Sealed(sealKey)
	if err := r.Verify(sealKey); err != nil {
		t.Fatalf("a sealed record does not verify: %v", err)
	}
	// The seal travels in the prompt's argv and comes back whole.
	back, err := resumerecord.ParseArgs(r.Args())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if err := back.Verify(sealKey); err != nil {
		t.Errorf("parsed back: %v", err)
	}

	// Any change to any field breaks it, and so do another key and none.
	for name, edit := range map[string]func(*resumerecord.Record){
		"agent":       func(r *resumerecord.Record) { r.Agent = "codex" },
		"mode":        func(r *resumerecord.Record) { r.Mode = "latest" },
		"id":          func(r *resumerecord.Record) { r.ID = "11111111-2222-4333-8444-555555555555" },
		"direct":      func(r *resumerecord.Record) { r.Direct = false },
		"from shell":  func(r *resumerecord.Record) { r.FromShell = false },
		"tab":         func(r *resumerecord.Record) { r.Tab = "api" },
		"dir":         func(r *resumerecord.Record) { r.Dir = "/home/u/code/web" },
		"dir gone":    func(r *resumerecord.Record) { r.Dir = "" },
		"env value":   func(r *resumerecord.Record) { r.Env[0] = "CLAUDE_CONFIG_DIR=/d" },
		"env added":   func(r *resumerecord.Record) { r.Env = append(r.Env, "B=2") },
		"env order":   func(r *resumerecord.Record) { r.Env[0], r.Env[1] = r.Env[1], r.Env[0] },
		"exe":         func(r *resumerecord.Record) { r.Exe = []string{"/tmp/claude"} },
		"exe gone":    func(r *resumerecord.Record) { r.Exe = nil },
		"origin":      func(r *resumerecord.Record) { r.Origin = "2026-12-01T09:00:00.5Z|unix:/tmp/kitty-7|7|3|42" },
		"origin gone": func(r *resumerecord.Record) { r.Origin = "" },
		"argv word":   func(r *resumerecord.Record) { r.Argv[2] = "opus" },
		"argv added":  func(r *resumerecord.Record) { r.Argv = append(r.Argv, "--verbose") },
		// Words moved across a boundary keep the same bytes joined.
		"words joined": func(r *resumerecord.Record) { r.Argv = append([]string{"/opt/claude --model"}, r.Argv[2:]...) },
		"tab into env": func(r *resumerecord.Record) { r.Tab, r.Env = "", append([]string{"api work"}, r.Env...) },
	} {
		e := fullRecord()
		e.Env, e.Argv = append([]string(nil), e.Env...), append([]string(nil), e.Argv...)
		e.Seal = r.Seal
		edit(&e)
		if err := e.Verify(sealKey); err == nil {
			t.Errorf("%s changed: the seal still holds", name)
		}
	}
	if err := r.Verify(bytes.Repeat([]byte{2}, resumerecord.KeySize)); err == nil {
		t.Error("verifies with another machine's key")
	}
	if err := r.Verify(nil); err == nil {
		t.Error("verifies with no key")
	}
	if err := fullRecord().Verify(sealKey); err == nil {
		t.Error("an unsealed record verifies")
	}
	for _, bad := range []string{"", "at|unix:/tmp/kitty-7\n|7|2|42"} {
		if _, err := resumerecord.ParseArgs([]string{"--agent", "claude", "--mode", "new", "--origin", bad, "--", "claude"}); err == nil {
			t.Errorf("--origin %q parsed", bad)
		}
	}
}

func TestLoadOrCreateKey(t *testing.T) {
	p := paths.Under(t.TempDir())
	key, err := resumerecord.LoadOrCreateKey(p)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p.ResumeKey())
	if err != nil {
		t.Fatal(err)
	}
	if len(key) != resumerecord.KeySize || info.Mode().Perm() != 0o600 || info.Size() != resumerecord.KeySize {
		t.Errorf("key %d bytes, file mode %v size %d", len(key), info.Mode(), info.Size())
	}
	again, err := resumerecord.LoadOrCreateKey(p)
	if err != nil || !bytes.Equal(key, again) {
		t.Errorf("second load: %v, same key %v", err, bytes.Equal(key, again))
	}
	read, err := resumerecord.ReadKey(p.ResumeKey())
	if err != nil || !bytes.Equal(key, read) {
		t.Errorf("ReadKey: %v, same key %v", err, bytes.Equal(key, read))
	}
	left, _ := filepath.Glob(filepath.Join(p.StateDir, ".resume-key?*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestLoadOrCreateKeyRace: processes saving at once all end with the one
// key that was created, never a partial one.
func TestLoadOrCreateKeyRace(t *testing.T) {
	for round := 0; round < 20; round++ {
		p := paths.Under(t.TempDir())
		keys := make([][]byte, 8)
		errs := make([]error, 8)
		var wg sync.WaitGroup
		for i := range keys {
			wg.Add(1)
			go func() {
				defer wg.Done()
				keys[i], errs[i] = resumerecord.LoadOrCreateKey(p)
			}()
		}
		wg.Wait()
		onDisk, err := resumerecord.ReadKey(p.ResumeKey())
		if err != nil {
			t.Fatal(err)
		}
		for i := range keys {
			if errs[i] != nil || !bytes.Equal(keys[i], onDisk) {
				t.Fatalf("round %d, caller %d: err %v, got the key on disk %v", round, i, errs[i], bytes.Equal(keys[i], onDisk))
			}
		}
	}
}

func TestReadKeyRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		data []byte
		mode os.FileMode
		want error
	}{
		{"readable by the group", sealKey, 0o640, resumerecord.ErrKeyUnsafe},
		{"writable by others", sealKey, 0o602, resumerecord.ErrKeyUnsafe},
		{"short", sealKey[:16], 0o600, resumerecord.ErrKeyUnsafe},
		{"long", append(sealKey, 0), 0o600, resumerecord.ErrKeyUnsafe},
		{"empty", nil, 0o600, resumerecord.ErrKeyUnsafe},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, c.data, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, c.mode); err != nil {
			t.Fatal(err)
		}
		if _, err := resumerecord.ReadKey(p); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := resumerecord.ReadKey(filepath.Join(dir, "none")); !errors.Is(err, resumerecord.ErrNoKey) {
		t.Errorf("missing: err = %v, want ErrNoKey", err)
	}
	if _, err := resumerecord.ReadKey(dir); !errors.Is(err, resumerecord.ErrKeyUnsafe) {
		t.Errorf("a directory: err = %v, want ErrKeyUnsafe", err)
	}
}

// TestWritten: what the rewriter and recover write is sealed when there is a
// key, and refused where the prompt would refuse it.
func TestWritten(t *testing.T) {
	key := bytes.Repeat([]byte{7}, resumerecord.KeySize)
	r := resumerecord.Record{Agent: "claude", Mode: "latest", Dir: "/srv", Env: []string{"LD_PRELOAD=/x.so"}, Argv: []string{"claude", "--continue"}}
	if _, err := r.Written(nil, nil); err == nil {
		t.Error("code-loading env written with no key to seal it")
	}
	args, err := r.Written(key, nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := resumerecord.ParseArgs(args)
	if err != nil || back.Verify(key) != nil {
		t.Errorf("written record does not read back sealed: %v, %v", err, back.Verify(key))
	}
	plain := resumerecord.Record{Agent: "claude", Mode: "latest", Argv: []string{"claude", "--continue"}}
	if args, err := plain.Written(nil, nil); err != nil || slices.Contains(args, "--seal") {
		t.Errorf("without a key: %q, %v", args, err)
	}
	bad := resumerecord.Record{Agent: "claude", Mode: "latest", Exe: []string{"/opt/a\x1bb"}, Argv: []string{"claude", "--continue"}}
	if _, err := bad.Written(key, nil); err == nil {
		t.Error("a word the prompt refuses was written")
	}
}

// TestSealDirectory: the seal holds only in the directory it was made for:
// a sealed record copied into another directory's window asks, and one
// with no directory is not sealed at all.
func TestSealDirectory(t *testing.T) {
	base := t.TempDir()
	api, web := filepath.Join(base, "api"), filepath.Join(base, "web")
	for _, d := range []string{api, web} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(api, link); err != nil {
		t.Fatal(err)
	}
	rec := func(dir string) resumerecord.Record {
		return resumerecord.Record{Agent: "claude", Mode: "latest", Dir: dir, Argv: []string{"claude", "--continue"}}.Sealed(sealKey)
	}
	for _, c := range []struct {
		name   string
		r      resumerecord.Record
		in     string
		holds  bool
		reason string
	}{
		{"its own directory", rec(api), api, true, ""},
		{"the same directory through a link", rec(link), api, true, ""},
		{"sealed through a link, run in the target", rec(api), link, true, ""},
		{"copied into another directory", rec(api), web, false, "sealed for the directory " + api},
		{"its directory gone", rec(filepath.Join(base, "gone")), web, false, "sealed for the directory"},
		{"no directory", rec(""), api, false, "names no directory"},
		{"no directory to compare", rec(api), "", false, "sealed for the directory"},
	} {
		err := c.r.VerifyIn(sealKey, c.in)
		if (err == nil) != c.holds || (err != nil && !strings.Contains(err.Error(), c.reason)) {
			t.Errorf("%s: VerifyIn = %v", c.name, err)
		}
	}
	// The prompt runs in its window's directory and passes ".".
	t.Chdir(web)
	if err := rec(web).VerifyIn(sealKey, "."); err != nil {
		t.Errorf("in its own directory as \".\": %v", err)
	}
	if err := rec(api).VerifyIn(sealKey, "."); err == nil {
		t.Error("a record sealed for another directory holds in this one")
	}
	// --dir must be a clean absolute path.
	for _, bad := range []string{"rel", "/a/../b", "/a\x1bb"} {
		if _, err := resumerecord.ParseArgs([]string{"--agent", "claude", "--mode", "new", "--dir", bad, "--", "claude"}); err == nil {
			t.Errorf("--dir %q accepted", bad)
		}
	}
}

// TestKeyStateDirRules: the key is read and created only by the state
// directory's rules: never through a linked state directory or a linked key,
// never in a directory others may write to or that someone else owns.
func TestKeyStateDirRules(t *testing.T) {
	type setup func(t *testing.T) paths.Paths
	for _, c := range []struct {
		name  string
		setup setup
		// made: creating the key tightens the directory to 0700, as
		// statefile does for every state file, and then succeeds.
		made bool
	}{
		{"state directory is a link", func(t *testing.T) paths.Paths {
			base := t.TempDir()
			target := filepath.Join(base, "elsewhere")
			if err := os.Mkdir(target, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(target, "resume-key"), sealKey, 0o600); err != nil {
				t.Fatal(err)
			}
			state := filepath.Join(base, "state")
			if err := os.Symlink(target, state); err != nil {
				t.Fatal(err)
			}
			return paths.Paths{StateDir: state}
		}, false},
		{"state directory others may write to", func(t *testing.T) paths.Paths {
			state := filepath.Join(t.TempDir(), "state")
			if err := os.Mkdir(state, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(state, 0o777); err != nil {
				t.Fatal(err)
			}
			return paths.Paths{StateDir: state}
		}, true},
		{"key is a link", func(t *testing.T) paths.Paths {
			base := t.TempDir()
			other := filepath.Join(base, "other-key")
			if err := os.WriteFile(other, sealKey, 0o600); err != nil {
				t.Fatal(err)
			}
			state := filepath.Join(base, "state")
			if err := os.Mkdir(state, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(other, filepath.Join(state, "resume-key")); err != nil {
				t.Fatal(err)
			}
			return paths.Paths{StateDir: state}
		}, false},
		{"key is a FIFO", func(t *testing.T) paths.Paths {
			state := filepath.Join(t.TempDir(), "state")
			if err := os.Mkdir(state, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := mkfifo(filepath.Join(state, "resume-key")); err != nil {
				t.Fatal(err)
			}
			return paths.Paths{StateDir: state}
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := c.setup(t)
			if _, err := resumerecord.ReadKey(p.ResumeKey()); !errors.Is(err, resumerecord.ErrKeyUnsafe) {
				t.Errorf("ReadKey: err = %v, want ErrKeyUnsafe", err)
			}
			_, err := resumerecord.LoadOrCreateKey(p)
			if c.made {
				info, serr := os.Stat(p.StateDir)
				if err != nil || serr != nil || info.Mode().Perm() != 0o700 {
					t.Errorf("LoadOrCreateKey: err = %v, state directory %v", err, info.Mode())
				}
			} else if !errors.Is(err, resumerecord.ErrKeyUnsafe) {
				t.Errorf("LoadOrCreateKey: err = %v, want ErrKeyUnsafe", err)
			}
		})
	}
	// Owned by another user: only root can make one to test with.
	if os.Geteuid() == 0 {
		state := filepath.Join(t.TempDir(), "state")
		if err := os.Mkdir(state, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(state, 4242, 4242); err != nil {
			t.Fatal(err)
		}
		p := paths.Paths{StateDir: state}
		if _, err := resumerecord.LoadOrCreateKey(p); !errors.Is(err, resumerecord.ErrKeyUnsafe) {
			t.Errorf("foreign-owned state directory: err = %v, want ErrKeyUnsafe", err)
		}
		if _, err := os.Lstat(p.ResumeKey()); err == nil {
			t.Error("a key was created in a foreign-owned state directory")
		}
	}
}
