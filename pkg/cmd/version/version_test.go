package version_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	versioncmd "github.com/kittymux/kittymux/pkg/cmd/version"
)

// TestVersionJSON: version --json adds the kitty found on PATH and in
// $KITTYMUX_KITTY and each agent CLI on PATH with what its --version says;
// a CLI that never answers is reported as such, and does not hold the
// command.
func TestVersionJSON(t *testing.T) {
	bin := t.TempDir()
	for name, script := range map[string]string{
		"claude": "#!/bin/sh\necho '2.0.1 (Claude Code)'\n",
		"codex":  "#!/bin/sh\nexec sleep 60\n",
		"kitty":  "#!/bin/sh\necho 'kitty 0.26.5 created by Kovid Goyal'\n",
		"kitty2": "#!/bin/sh\necho 'kitty 0.48.2 created by Kovid Goyal'\n",
	} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f, out, _ := factorytest.New(t)
	env := map[string]string{"PATH": bin, "KITTYMUX_KITTY": filepath.Join(bin, "kitty2")}
	f.Getenv = func(k string) string { return env[k] }
	cmd := versioncmd.NewCmdVersion(f)
	cmd.SetArgs([]string{"--json"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	var rep versioncmd.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Version == "" || !strings.HasPrefix(rep.Go, "go") || rep.Platform == "" {
		t.Errorf("build: %+v", rep.Info)
	}
	if len(rep.Kitty) != 2 || rep.Kitty[0].Version != "0.26.5" || rep.Kitty[0].Source != "PATH" ||
		rep.Kitty[1].Version != "0.48.2" || rep.Kitty[1].Source != "KITTYMUX_KITTY" {
		t.Errorf("kitty: %+v", rep.Kitty)
	}
	if len(rep.Agents) != 2 || rep.Agents[0].Name != "claude" || rep.Agents[0].Version != "2.0.1 (Claude Code)" ||
		rep.Agents[1].Name != "codex" || rep.Agents[1].Version != "" || !strings.Contains(rep.Agents[1].Error, "no answer within") {
		t.Errorf("agents: %+v", rep.Agents)
	}
}
