package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Bounds on the package initialisation of kittymux's own packages, in
// allocations as GODEBUG=inittrace=1 counts them: every command pays for
// every linked package's init, so work a command may not use (tables,
// maps, regular expressions) belongs in a sync.OnceValue or a switch. The
// counts are the same on every run of one build, unlike times.
const (
	maxInitAllocsPerPackage = 100
	maxInitAllocs           = 200
	maxInitBytesPerPackage  = 16 << 10
)

// TestInitWork fails when a kittymux package gains init-time work above
// the bounds, in kittymux and in kittymux-resume.
func TestInitWork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both commands")
	}
	dir := t.TempDir()
	for _, c := range []struct{ pkg, arg string }{
		{"github.com/kittymux/kittymux/cmd/kittymux", "--help"},
		{"github.com/kittymux/kittymux/cmd/kittymux-resume", "--version"},
	} {
		bin := filepath.Join(dir, filepath.Base(c.pkg))
		build := exec.Command("go", "build", "-o", bin, c.pkg)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", c.pkg, err, out)
		}
		cmd := exec.Command(bin, c.arg)
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %s: %v\n%s", bin, c.arg, err, stderr.String())
		}
		total, seen := 0, 0
		for _, line := range strings.Split(stderr.String(), "\n") {
			// init PKG @T ms, C ms clock, B bytes, A allocs
			f := strings.Fields(line)
			if len(f) != 11 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/kittymux/kittymux/") {
				continue
			}
			bytes, err1 := strconv.Atoi(f[7])
			allocs, err2 := strconv.Atoi(f[9])
			if err1 != nil || err2 != nil {
				t.Fatalf("unreadable inittrace line %q", line)
			}
			seen++
			total += allocs
			if allocs > maxInitAllocsPerPackage || bytes > maxInitBytesPerPackage {
				t.Errorf("%s: init of %s: %d allocations, %d bytes; at most %d and %d: make the work lazy",
					filepath.Base(c.pkg), f[1], allocs, bytes, maxInitAllocsPerPackage, maxInitBytesPerPackage)
			}
		}
		if seen == 0 {
			t.Fatalf("%s: no init of kittymux's packages traced:\n%s", filepath.Base(c.pkg), stderr.String())
		}
		if total > maxInitAllocs {
			t.Errorf("%s: kittymux's packages allocate %d times at init; at most %d", filepath.Base(c.pkg), total, maxInitAllocs)
		}
		t.Logf("%s: %d of kittymux's packages, %d allocations at init", filepath.Base(c.pkg), seen, total)
	}
}
