// Package version says which build of kittymux runs: the module version, the
// VCS revision and time the Go toolchain stamped into the binary, and the Go
// version it was built with.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Info is the build of the running binary. Field names are stable
// (`kittymux version --json`).
type Info struct {
	// Version is the module version: a tag such as v1.2.0 when installed
	// with `go install ...@v1.2.0`, "(devel)" when built in a clone.
	Version string `json:"version"`
	// Revision is the VCS commit, Time its commit time (RFC 3339), and
	// Modified says the work tree had changes: empty and false when the
	// build has no VCS stamp (go run, a test binary, -buildvcs=false).
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Go is the toolchain that built it ("go1.26.0"), Platform GOOS/GOARCH.
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// Get reads the running binary's build information.
func Get() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return FromBuildInfo(nil)
	}
	return FromBuildInfo(bi)
}

// FromBuildInfo is Info from bi (nil: a binary without build information).
func FromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi == nil {
		return in
	}
	if v := bi.Main.Version; v != "" {
		in.Version = v
	}
	if bi.GoVersion != "" {
		in.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		case "GOOS":
			in.Platform = s.Value + "/" + strings.SplitN(in.Platform, "/", 2)[1]
		case "GOARCH":
			in.Platform = strings.SplitN(in.Platform, "/", 2)[0] + "/" + s.Value
		}
	}
	return in
}

// Line is the one line `--version` prints for program:
//
//	kittymux v1.2.0 (revision 97a16ee1c2d3, modified, 2026-12-02T01:51:18Z; go1.26.0 linux/amd64)
//	kittymux (devel) (no revision; go1.26.0 linux/amd64)
func (in Info) Line(program string) string {
	rev := "no revision"
	if in.Revision != "" {
		rev = "revision " + short(in.Revision)
		if in.Modified {
			rev += ", modified"
		}
		if in.Time != "" {
			rev += ", " + in.Time
		}
	}
	return fmt.Sprintf("%s %s (%s; %s %s)", program, in.Version, rev, in.Go, in.Platform)
}

func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}
