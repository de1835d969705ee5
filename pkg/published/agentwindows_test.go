package published_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

const uuid = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"

var key = bytes.Repeat([]byte{3}, resumerecord.KeySize)

// file writes a session of one window per record, each in its directory.
func file(t *testing.T, dirs []string, recs []resumerecord.Record) []byte {
	var b strings.Builder
	b.WriteString("new_tab\nlaunch 'kitty-unserialize-data={\"id\": 99}' --cwd=/w/docs\n")
	for i, r := range recs {
		fmt.Fprintf(&b, "launch 'kitty-unserialize-data={\"id\": %d}' --cwd=%s /opt/bin/kittymux-resume", i+1, dirs[i])
		for _, a := range r.Args() {
			q, err := syntax.Quote(a, syntax.LangPOSIX)
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString(" " + q)
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// TestAgentWindows: the agent windows of a restored file, and which of
// them run without asking (the restore waits for those).
func TestAgentWindows(t *testing.T) {
	claude := resumerecord.Record{Agent: "claude", Mode: "exact", ID: uuid, Tab: "api", Argv: []string{"claude", "--resume", uuid}}
	direct := claude
	direct.Direct = true
	codex := resumerecord.Record{Agent: "codex", Mode: "latest", Argv: []string{"codex", "resume", "--last"}}
	unsure := resumerecord.Record{Agent: "gemini", Mode: "new", Confirm: true, Argv: []string{"gemini", "-m", "x"}}
	direct.Dir, codex.Dir, unsure.Dir = "/w/api", "/w/cli", "/w/gem"
	recs := []resumerecord.Record{direct.Sealed(key), codex.Sealed(key), unsure.Sealed(key), claude}
	dirs := []string{"/w/api", "/w/cli", "/w/gem", "/w/old"}
	data := file(t, dirs, recs)

	ws, err := published.AgentWindows(data, key, false)
	if err != nil {
		t.Fatal(err)
	}
	var auto []bool
	for _, w := range ws {
		auto = append(auto, w.Auto)
	}
	// --direct and sealed runs without asking; the others ask.
	if diff := cmp.Diff([]bool{true, false, false, false}, auto); diff != "" {
		t.Errorf("auto without KITTYMUX_RESUME=auto (-want +got):\n%s", diff)
	}
	ws, _ = published.AgentWindows(data, key, true)
	auto = nil
	for _, w := range ws {
		auto = append(auto, w.Auto)
	}
	// Auto mode: sealed records run; --confirm and unsealed ones still ask.
	if diff := cmp.Diff([]bool{true, true, false, false}, auto); diff != "" {
		t.Errorf("auto with KITTYMUX_RESUME=auto (-want +got):\n%s", diff)
	}
}
