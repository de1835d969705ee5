package kitty

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// Version is a kitty release, e.g. 0.26.5.
type Version struct{ Major, Minor, Patch int }

func (v Version) String() string {
	if v.IsZero() {
		return "unknown"
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// IsZero reports an unknown version.
func (v Version) IsZero() bool { return v == Version{} }

// AtLeast reports whether v is o or newer.
func (v Version) AtLeast(o Version) bool {
	if v.Major != o.Major {
		return v.Major > o.Major
	}
	if v.Minor != o.Minor {
		return v.Minor > o.Minor
	}
	return v.Patch >= o.Patch
}

// ParseVersion reads "0.26.5" or "kitty 0.26.5 created by Kovid Goyal".
func ParseVersion(s string) (Version, error) {
	m := versionRE().FindStringSubmatch(s)
	if m == nil {
		return Version{}, fmt.Errorf("no kitty version in %.60q", s)
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	c, _ := strconv.Atoi(m[3])
	return Version{a, b, c}, nil
}

var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`) })

// The versions that features arrived in (checked on kitty 0.26.5 and 0.48.2, and in kitty's changelog).
var (
	VersionUserVars      = Version{0, 30, 0}
	VersionAction        = Version{0, 32, 2}
	VersionSaveAsSession = Version{0, 43, 0}
	VersionOnQuit        = Version{0, 46, 2}
)

// Part is what a user does with kittymux that needs a kitty version.
type Part struct {
	Name  string
	Since Version
}

// Parts are the parts of kittymux that need a kitty newer than the oldest
// it works with; everything else (the scanner, its journal, sessions
// recover, agents restart, the hooks, the restore prompt) works on any.
var Parts = []Part{
	{Name: "save, autosave and restore", Since: VersionSaveAsSession},
	{Name: "the quit capture", Since: VersionOnQuit},
}

// WhatWorks says, in a line, which parts of kittymux work on kitty v and
// which need a newer kitty. An unknown version is said to have none.
func (v Version) WhatWorks() string {
	works := []string{"the scanner", "recover", "restart", "hooks", "the restore prompt"}
	var needs []string
	for _, p := range Parts {
		if !v.IsZero() && v.AtLeast(p.Since) {
			works = append(works, p.Name)
		} else {
			needs = append(needs, fmt.Sprintf("%s (%s or newer)", p.Name, p.Since))
		}
	}
	if len(needs) == 0 {
		var all []string
		for _, p := range Parts {
			all = append(all, fmt.Sprintf("%s: %s", p.Name, p.Since))
		}
		return "every part works (" + strings.Join(all, "; ") + ")"
	}
	return "works: " + strings.Join(works, ", ") + "; needs a newer kitty: " + strings.Join(needs, ", ")
}

// Feature is something kittymux uses that needs a kitty version.
type Feature struct {
	Name  string  `json:"name"`
	Since Version `json:"-"`
	Need  string  `json:"needs"`
	Have  bool    `json:"available"`
}

// Features lists what kittymux uses and whether v has it. An unknown
// version has none of them.
func (v Version) Features() []Feature {
	fs := []Feature{
		{Name: "user_vars", Since: VersionUserVars},
		{Name: "action", Since: VersionAction},
		{Name: "save_as_session", Since: VersionSaveAsSession},
		{Name: "goto_session", Since: VersionSaveAsSession},
		{Name: "on_quit", Since: VersionOnQuit},
	}
	for i := range fs {
		fs[i].Need = fs[i].Since.String()
		fs[i].Have = !v.IsZero() && v.AtLeast(fs[i].Since)
	}
	return fs
}

// Has reports whether v has the named feature.
func (v Version) Has(name string) bool {
	for _, f := range v.Features() {
		if f.Name == name {
			return f.Have
		}
	}
	return false
}

// constantsRE matches kitty/constants.py's `version: Version = Version(0, 26, 5)`.
var constantsRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^version[^=]*=\s*Version\((\d+),\s*(\d+),\s*(\d+)\)`)
})

// VersionOfInstall reads the version of the kitty installed in dir (its
// KITTY_INSTALLATION_DIR, which kitty gives every window) from its
// kitty/constants.py, without running anything; ok is false when that
// file is not there or says no version.
func VersionOfInstall(dir string) (v Version, ok bool) {
	if dir == "" {
		return Version{}, false
	}
	return versionOfConstants(filepath.Join(dir, "kitty", "constants.py"))
}

func versionOfConstants(path string) (Version, bool) {
	b, err := userfile.Read(path, 1<<20)
	if err != nil {
		return Version{}, false
	}
	m := constantsRE().FindSubmatch(b)
	if m == nil {
		return Version{}, false
	}
	v, err := ParseVersion(fmt.Sprintf("%s.%s.%s", m[1], m[2], m[3]))
	return v, err == nil
}

// VersionOfExe finds the version of the kitty binary at exe. It first reads
// kitty/constants.py beside the install (instant: 0.26.x's `kitty --version`
// starts Python and takes ~100 ms), then falls back to running
// `exe --version` with a short timeout.
func VersionOfExe(ctx context.Context, exe string) (Version, error) {
	real, err := filepath.EvalSymlinks(exe)
	if err == nil {
		exe = real
	}
	dir := filepath.Dir(exe)
	for _, c := range []string{
		filepath.Join(dir, "..", "..", "kitty", "constants.py"),           // /usr/lib/kitty/kitty/launcher/kitty
		filepath.Join(dir, "..", "lib", "kitty", "kitty", "constants.py"), // kitty.app/bin/kitty
		filepath.Join(dir, "..", "kitty", "constants.py"),
	} {
		if v, ok := versionOfConstants(c); ok {
			return v, nil
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "--version")
	cmd.Stdin = nil
	out, err := cmd.Output()
	if err != nil {
		return Version{}, fmt.Errorf("%s --version: %w", exe, err)
	}
	return ParseVersion(string(out))
}
