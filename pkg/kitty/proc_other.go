//go:build !linux

package kitty

import (
	"os"
	"path/filepath"
)

// running finds kitties without a process table (macOS has no /proc): the
// sockets that kitty.conf's listen_on leads to, with any pid in their names.
// A kitty started with --listen-on or -o listen_on is found only through
// KITTY_LISTEN_ON or --to. The binary, and so the version, is that of the
// installed kitty (installedKitty), not read from each process.
func running(o DiscoverOptions) []Instance {
	out := socketsFromConf(listenOnFromConf(filepath.Join(o.ConfigDir, "kitty.conf"), o.Getenv), o)
	exe := installedKitty(o.Getenv)
	for i := range out {
		out[i].Exe = exe
	}
	return out
}

// programs: with no process table, the kitties Discover would find.
func programs(o DiscoverOptions) []Instance { return running(o) }

// processDetails cannot read another process here: the binary is the
// installed kitty's, and whether a kitty is a utility one is left to its
// ls (Answer).
func processDetails(o DiscoverOptions, _ int) (exe, utility string) {
	return installedKitty(o.Getenv), ""
}

// installedKitty is the kitty on PATH, else the app bundle's.
func installedKitty(getenv func(string) string) string {
	cands := []string{}
	for _, dir := range filepath.SplitList(getenv("PATH")) {
		if dir != "" {
			cands = append(cands, filepath.Join(dir, "kitty"))
		}
	}
	cands = append(cands, "/Applications/kitty.app/Contents/MacOS/kitty", filepath.Join(getenv("HOME"), "Applications", "kitty.app", "Contents", "MacOS", "kitty"))
	for _, c := range cands {
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return c
		}
	}
	return ""
}

// Ours: with no process table to read a kitty's environment from, every
// kitty found is this kittymux's.
func Ours(DiscoverOptions, int) bool { return true }
