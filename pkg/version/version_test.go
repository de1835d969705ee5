package version

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestLineGolden: the shape of `--version`, with and without a VCS stamp,
// is testdata/line.golden.
func TestLineGolden(t *testing.T) {
	stamped := FromBuildInfo(&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "97a16ee1c2d3a4b5c6d7e8f90123456789abcdef"},
			{Key: "vcs.time", Value: "2026-12-02T01:51:18Z"}, {Key: "vcs.modified", Value: "true"},
			{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"}}})
	clean := stamped
	clean.Modified = false
	bare := FromBuildInfo(&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "GOOS", Value: "darwin"}, {Key: "GOARCH", Value: "arm64"}}})
	got := strings.Join([]string{stamped.Line("kittymux"), clean.Line("kittymux"), bare.Line("kittymux-resume")}, "\n") + "\n"
	want, err := os.ReadFile(filepath.Join("testdata", "line.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("--version lines:\n%s\nwant (testdata/line.golden):\n%s", got, want)
	}
}

// TestNoBuildInfo: a binary without build information still says what it
// can.
func TestNoBuildInfo(t *testing.T) {
	in := FromBuildInfo(nil)
	if in.Version != "(devel)" || !strings.HasPrefix(in.Go, "go") || !strings.Contains(in.Platform, "/") {
		t.Errorf("%+v", in)
	}
}
