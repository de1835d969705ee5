package agents

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEnvNeedsSeal(t *testing.T) {
	// A user's agent with a config_env of its own; claude is replaced by a
	// user entry that names none: the shipped CLAUDE_* still counts.
	env := []AgentEnv{{"MYCO_TOKEN", "my-agent"}, {"MY_AGENT_*", "my-agent"}, {"CLAUDE_*", "claude"}}
	got := map[string]bool{}
	for _, kv := range []string{
		"NODE_OPTIONS=--require=x", "NODE_PATH=/x", "BASH_ENV=/x", "ENV=/x", "LD_PRELOAD=/x.so", "LD_LIBRARY_PATH=/x",
		"DYLD_INSERT_LIBRARIES=/x", "PATH=/x", "PYTHONPATH=/x", "PYTHONSTARTUP=/x", "PERL5OPT=-Mx", "PERL5LIB=/x",
		"RUBYOPT=-rx", "HOME=/x", "XDG_CONFIG_HOME=/x", "XDG_DATA_HOME=/x", "CLAUDE_CONFIG_DIR=/x", "CLAUDE_ENV_FILE=/x",
		"CODEX_HOME=/x", "GEMINI_CLI_HOME=/x", "COPILOT_HOME=/x", "OPENCODE_CONFIG=/x", "PI_CODING_AGENT_DIR=/x",
		"ANTHROPIC_BASE_URL=https://x", "OPENAI_BASE_URL=https://x", "https_proxy=http://x", "SSL_CERT_FILE=/x",
		"GIT_SSH_COMMAND=x", "SHELL=/x", "MY_AGENT_HOME=/x", "GLIBC_TUNABLES=x", "node_options=x",
		"MYCO_TOKEN=x", "GH_TOKEN=x", "KILOCODE_API=x", "MOONSHOT_API_KEY=x", "XAI_API_KEY=x", "FACTORY_API_KEY=x",
		// Plain ones any record may set.
		"FORCE_COLOR=1", "NO_COLOR=1", "TERM=xterm", "LANG=C.UTF-8", "DEBUG=1", "MYVAR=x", "MYCO_OTHER=x",
	} {
		got[kv] = EnvNeedsSeal(kv, env) != ""
	}
	want := map[string]bool{}
	for kv := range got {
		want[kv] = true
	}
	for _, kv := range []string{"FORCE_COLOR=1", "NO_COLOR=1", "TERM=xterm", "LANG=C.UTF-8", "DEBUG=1", "MYVAR=x", "MYCO_OTHER=x"} {
		want[kv] = false
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("needs a seal (-want +got):\n%s", diff)
	}
}

// TestShippedConfigEnv: every shipped agent's own variables are in its
// definition, and what they cover with the providers' list is every name
// the list held when it was one list in this file.
func TestShippedConfigEnv(t *testing.T) {
	for _, p := range []string{"ANTHROPIC_*", "CLAUDE_*", "OPENAI_*", "CODEX_*", "GEMINI_*", "GOOGLE_*", "VERTEX_*",
		"CLOUD_ML_*", "COPILOT_*", "GH_*", "GITHUB_*", "OPENCODE_*", "KILO_*", "KILOCODE_*", "PI_*", "QODER_*",
		"FACTORY_*", "DROID_*", "AMP_*", "CRUSH_*", "CURSOR_*", "KIMI_*", "MOONSHOT_*", "HERMES_*", "GOOSE_*", "OMP_*",
		"MASTRA_*", "MASTRACODE_*", "GROK_*", "XAI_*", "AIDER_*", "JUNIE_*", "AWS_*", "AZURE_*", "OPENROUTER_*",
		"OLLAMA_*", "LITELLM_*"} {
		kv := strings.TrimSuffix(p, "*") + "X=1"
		if EnvNeedsSeal(kv, nil) == "" {
			t.Errorf("%s: any record may set it", kv)
		}
	}
	set, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range set.Names() {
		d, _ := set.Definition(n)
		if len(d.ConfigEnv) == 0 {
			t.Errorf("%s: no config_env", n)
		}
	}
	if why := EnvNeedsSeal("CLAUDE_CONFIG_DIR=/x", nil); why != "CLAUDE_CONFIG_DIR configures claude" {
		t.Errorf("CLAUDE_CONFIG_DIR: %q", why)
	}
}

// TestConfigEnvRefused: a config_env entry must be a name or a prefix.
func TestConfigEnvRefused(t *testing.T) {
	good := Definition{Programs: []string{"x"}, Resume: new(false), ConfigEnv: []string{"X_*", "X_TOKEN", "lower_ok"}}
	if _, err := build("t.json", "x", good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"*", "", "A B", "X=1", "*_TOKEN", "FOO*BAR"} {
		d := Definition{Programs: []string{"x"}, Resume: new(false), ConfigEnv: []string{bad}}
		if _, err := build("t.json", "x", d); err == nil || !strings.Contains(err.Error(), "config_env") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestShippedCompile: every shipped definition compiles. A Set compiles
// each one only when it is first asked for, where one that failed would
// read as not defined.
func TestShippedCompile(t *testing.T) {
	for _, e := range shipped {
		if _, err := buildNamed(ShippedFile, e.Name, e.Def); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
	}
	s, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range s.Names() {
		if a, ok := s.Agent(n); !ok || a.Name != n {
			t.Errorf("%s: not compiled when asked for", n)
		}
	}
}
