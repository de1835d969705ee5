package hookinstall

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestCodexTrust: codex runs kittymux's hooks only once its /hooks has
// trusted them, which it writes as [hooks.state."<hooks.json>:<event>:
// <group>:<hook>"] tables into config.toml beside hooks.json (as codex
// 0.171.0 did in TestRealConversationsCodex). The user's own hook group comes
// first in the fixture, so kittymux's groups are not all at index 0.
func TestCodexTrust(t *testing.T) {
	a, _ := Find("codex")
	env, path := place(t, a, fixtures["codex"])
	if _, err := Install(a, env); err != nil {
		t.Fatal(err)
	}
	st := StatusOf(a, env)
	if st.State != Installed || st.Trust != Untrusted || st.TrustHow == "" {
		t.Fatalf("before any trust: %+v", st)
	}
	var keys []string
	top, _, _, err := read(path)
	if err != nil {
		t.Fatal(err)
	}
	hooks, _ := top.object("hooks")
	for _, m := range hooks {
		groups, _ := array(m.Val)
		for i, g := range groups {
			if ok, _, _, _ := oursGroup(g, "codex"); ok {
				keys = append(keys, path+":"+codexEvents[m.Key]+":"+strconv.Itoa(i)+":0")
			}
		}
	}
	if len(keys) != 3 {
		t.Fatalf("kittymux's groups: %q", keys)
	}
	conf := filepath.Join(filepath.Dir(path), "config.toml")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	table := func(k string) string {
		return "[hooks.state.\"" + k + "\"]\ntrusted_hash = \"sha256:00\"\n\n"
	}
	write("model = \"x\"\n\n[hooks.state]\n\n" + table(keys[0]) + table(keys[1]))
	if st := StatusOf(a, env); st.Trust != Untrusted {
		t.Errorf("two of three trusted: %+v", st)
	}
	write("model = \"x\"\n\n[hooks.state]\n\n" + table(keys[0]) + table(keys[1]) + table(keys[2]))
	if st := StatusOf(a, env); st.Trust != Trusted || st.TrustHow != "" {
		t.Errorf("all trusted: %+v", st)
	}
	// claude asks no trust.
	c, _ := Find("claude")
	cenv, _ := place(t, c, fixtures["claude"])
	if _, err := Install(c, cenv); err != nil {
		t.Fatal(err)
	}
	if st := StatusOf(c, cenv); st.Trust != "" {
		t.Errorf("claude: %+v", st)
	}
}

// codexEvents are codex's names of the events in its trust keys.
var codexEvents = map[string]string{"SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submit", "Stop": "stop"}
