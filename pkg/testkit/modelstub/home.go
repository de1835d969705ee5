package modelstub

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Key is the API key the agents are given: any key does, the stand-in
// checks none.
const Key = "sk-ant-stub-0123456789abcdefghijklmnopqrstuvwxyz"

// ClaudeHome prepares home (a throw-away HOME, never the user's) for claude
// 2.1.197 to talk to s without asking anything: ~/.claude.json with the
// onboarding done, the key approved and each of dirs trusted. The
// registry's newest claude (2.1.332) starts with it too, showing a note that
// auto mode is now its default, which asks nothing. It returns the
// environment claude needs besides HOME=home.
func (s *Server) ClaudeHome(t testing.TB, home string, dirs ...string) []string {
	t.Helper()
	projects := map[string]any{}
	for _, d := range dirs {
		projects[d] = map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true,
			"projectOnboardingSeenCount": 1}
	}
	conf := map[string]any{
		// Without it the TUI checks the network first and stops there.
		"hasCompletedOnboarding": true,
		"lastOnboardingVersion":  "2.1.197",
		"theme":                  "dark",
		// The key's last 20 characters: an approved custom key.
		"customApiKeyResponses": map[string]any{"approved": []string{Key[len(Key)-20:]}, "rejected": []string{}},
		"projects":              projects,
		"autoUpdates":           false,
	}
	writeJSONFile(t, filepath.Join(home, ".claude.json"), conf)
	return []string{
		"ANTHROPIC_BASE_URL=" + s.URL,
		"ANTHROPIC_API_KEY=" + Key,
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
}

// CodexProvider is the name of the stand-in in codex's config.toml.
const CodexProvider = "stub"

// CodexHome prepares home (a throw-away HOME, never the user's) for codex
// 0.171.0 to talk to s: `codex login --with-api-key` (the key on stdin, with
// the codex on PATH) and ~/.codex/config.toml with the stand-in as model
// provider and each of dirs trusted. It returns the environment codex needs
// besides HOME=home.
func (s *Server) CodexHome(t testing.TB, home string, dirs ...string) []string {
	t.Helper()
	codexDir := filepath.Join(home, ".codex")
	if err := os.MkdirAll(codexDir, 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"CODEX_STUB_API_KEY=" + Key}
	var conf strings.Builder
	fmt.Fprintf(&conf, "model = %s\nmodel_provider = %s\ncheck_for_update_on_startup = false\n",
		strconv.Quote("gpt-5-stub"), strconv.Quote(CodexProvider))
	fmt.Fprintf(&conf, "\n[model_providers.%s]\nname = %s\nbase_url = %s\nwire_api = \"responses\"\n"+
		"supports_websockets = false\nenv_key = \"CODEX_STUB_API_KEY\"\n",
		CodexProvider, strconv.Quote("model stand-in"), strconv.Quote(s.URL+"/v1"))
	for _, d := range dirs {
		fmt.Fprintf(&conf, "\n[projects.%s]\ntrust_level = \"trusted\"\n", strconv.Quote(d))
	}
	if err := os.WriteFile(filepath.Join(codexDir, "config.toml"), []byte(conf.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	codex, err := exec.LookPath("codex")
	if err != nil {
		t.Fatalf("codex is not on PATH: %v", err)
	}
	cmd := exec.Command(codex, "login", "--with-api-key")
	cmd.Env = append(Isolated(os.Environ()), "HOME="+home)
	cmd.Dir = home
	cmd.Stdin = strings.NewReader(Key + "\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("codex login --with-api-key: %v\n%s", err, out)
	}
	return env
}

// Isolated drops what would send an agent to the user's own files.
func Isolated(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "CODEX_HOME", k == "CLAUDE_CONFIG_DIR", strings.HasPrefix(k, "XDG_"),
			strings.HasPrefix(k, "OPENAI_"), strings.HasPrefix(k, "ANTHROPIC_"):
			continue
		}
		out = append(out, kv)
	}
	return out
}

func writeJSONFile(t testing.TB, name string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
