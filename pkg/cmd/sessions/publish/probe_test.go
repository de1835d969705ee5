package publish_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/publish"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/plan"
)

// TestPublishHungProbe: a CLI whose --help never answers costs a publish of
// a 30-window save one probe deadline, once. The timeout is remembered, so
// the next publish does not probe again. No answer is no evidence against
// the definition: each window is rewritten from it (here to a new
// conversation each: 30 windows, no ids) and says the probe did not
// answer, rather than kept as saved for kitty to start afresh.
func TestPublishHungProbe(t *testing.T) {
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	counter := filepath.Join(tmp, "probes")
	// The stand-in counts its runs, then hangs with a child holding the pipe.
	stub := fmt.Sprintf("#!/bin/sh\necho \"$*\" >> '%s'\nsleep 600 & sleep 600\n", counter)
	gemini := filepath.Join(bin, "gemini")
	if err := os.WriteFile(gemini, []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	var raw strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&raw, "new_tab t%d\ncd /w/%d\n\nlaunch 'kitty-unserialize-data={\"id\": %d}' %s --model gemini-2.5-pro\n\n", i, i, i, gemini)
	}
	rawPath := filepath.Join(tmp, "raw.kitty-session")
	if err := os.WriteFile(rawPath, []byte(raw.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	const deadline = time.Second
	env := map[string]string{"PATH": bin + ":/usr/bin:/bin", "HOME": tmp,
		"KITTYMUX_RESUME_BIN": filepath.Join(tmp, "kittymux-resume"), "KITTYMUX_PROBE_TIMEOUT": deadline.String()}

	for run := 1; run <= 2; run++ {
		f, out, errOut := factorytest.New(t)
		f.Paths = paths.Under(tmp)
		f.Getenv = func(k string) string { return env[k] }
		start := time.Now()
		err := publish.Publish(t.Context(), publish.PublishOptions{Raw: rawPath, Name: "hung", JSON: true}.From(f))
		took := time.Since(start)
		if err != nil {
			t.Fatalf("run %d: %v\n%s", run, err, errOut.String())
		}
		// Generous: the point is one deadline in all, not one per window
		// (30) or per run of the old 20 s probe.
		if took > deadline+4*time.Second {
			t.Errorf("run %d took %v with a probe deadline of %v", run, took, deadline)
		}
		var res shared.SaveResult
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("run %d: %v\n%s", run, err, out.String())
		}
		if len(res.Windows) != 30 {
			t.Fatalf("run %d: %d windows, want 30", run, len(res.Windows))
		}
		for _, w := range res.Windows {
			if w.Mode != plan.ModeChoose || !strings.Contains(w.Reason, "gemini --help: no answer within 1s (remembered 5m0s), so its definition's flags are used") {
				t.Errorf("run %d window %d: %s: %q", run, w.WindowID, w.Mode, w.Reason)
				break
			}
		}
		data, err := os.ReadFile(counter)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), "\n"); n != 1 {
			t.Errorf("after run %d the stand-in ran %d times, want 1: %q", run, n, data)
		}
	}
}

// TestPublishUnsure: a word after a flag in no grammar stays beside it, and
// the published record asks before running it (--confirm). With no journal
// record of the window, the record is not sealed either.
func TestPublishUnsure(t *testing.T) {
	tmp := t.TempDir()
	raw := "new_tab t\ncd /w\n\nlaunch 'kitty-unserialize-data={\"id\": 1}' /opt/oc/opencode --frobnicate loud -m x\n"
	rawPath := filepath.Join(tmp, "raw.kitty-session")
	if err := os.WriteFile(rawPath, []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PATH": filepath.Join(tmp, "empty"), "HOME": tmp, "KITTYMUX_RESUME_BIN": filepath.Join(tmp, "kittymux-resume")}
	f, out, errOut := factorytest.New(t)
	f.Paths = paths.Under(tmp)
	f.Getenv = func(k string) string { return env[k] }
	if err := publish.Publish(t.Context(), publish.PublishOptions{Raw: rawPath, Stdout: true}.From(f)); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	for _, want := range []string{"--mode latest --confirm --tab t --dir /w -- /opt/oc/opencode --frobnicate loud -m x --continue\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("published file lacks %q:\n%s", want, out.String())
		}
	}
}
