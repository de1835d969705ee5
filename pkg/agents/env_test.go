package agents

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEnvNeedsSeal(t *testing.T) {
	names := []string{"claude", "codex", "my-agent"}
	got := map[string]bool{}
	for _, kv := range []string{
		"NODE_OPTIONS=--require=x", "NODE_PATH=/x", "BASH_ENV=/x", "ENV=/x", "LD_PRELOAD=/x.so", "LD_LIBRARY_PATH=/x",
		"DYLD_INSERT_LIBRARIES=/x", "PATH=/x", "PYTHONPATH=/x", "PYTHONSTARTUP=/x", "PERL5OPT=-Mx", "PERL5LIB=/x",
		"RUBYOPT=-rx", "HOME=/x", "XDG_CONFIG_HOME=/x", "XDG_DATA_HOME=/x", "CLAUDE_CONFIG_DIR=/x", "CLAUDE_ENV_FILE=/x",
		"CODEX_HOME=/x", "GEMINI_CLI_HOME=/x", "COPILOT_HOME=/x", "OPENCODE_CONFIG=/x", "PI_CODING_AGENT_DIR=/x",
		"ANTHROPIC_BASE_URL=https://x", "OPENAI_BASE_URL=https://x", "https_proxy=http://x", "SSL_CERT_FILE=/x",
		"GIT_SSH_COMMAND=x", "SHELL=/x", "MY_AGENT_HOME=/x", "GLIBC_TUNABLES=x", "node_options=x",
		// Plain ones any record may set.
		"FORCE_COLOR=1", "NO_COLOR=1", "TERM=xterm", "LANG=C.UTF-8", "DEBUG=1", "MYVAR=x",
	} {
		got[kv] = EnvNeedsSeal(kv, names) != ""
	}
	want := map[string]bool{}
	for kv := range got {
		want[kv] = true
	}
	for _, kv := range []string{"FORCE_COLOR=1", "NO_COLOR=1", "TERM=xterm", "LANG=C.UTF-8", "DEBUG=1", "MYVAR=x"} {
		want[kv] = false
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("needs a seal (-want +got):\n%s", diff)
	}
}
