package agenthooks

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// Trust states of an agent's hooks, where the agent runs a new hook only
// once the user trusts it (codex).
const (
	Trusted   = "trusted"
	Untrusted = "not trusted"
)

// codexTrustHow is what a user does once, in codex 0.171.0, to trust the
// hooks integration install added.
const codexTrustHow = `start codex once and answer its question about new hooks with "Trust all and continue" (or trust them in its /hooks)`

// codexTrust says whether codex trusts each of keys, the hooks of
// kittymux's groups in hooksFile ("<hooks.json>:<event>:<group>:<hook>",
// as codex names them): codex writes a trusted hook's key as a table
// [hooks.state."KEY"] with its trusted_hash into config.toml beside
// hooks.json (checked on codex 0.171.0's /hooks). The hash is codex's own
// (of the hook as it was trusted): a hook changed since is asked again by
// codex, which this cannot see.
func codexTrust(hooksFile string, keys []string) (string, string) {
	data, err := os.ReadFile(filepath.Join(filepath.Dir(hooksFile), "config.toml"))
	if err != nil && !os.IsNotExist(err) {
		return Untrusted, fmt.Sprintf("codex's config.toml cannot be read (%v); %s", err, codexTrustHow)
	}
	tables := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if k, ok := strings.CutPrefix(line, `[hooks.state.`); ok {
			tables[strings.TrimSuffix(strings.TrimRightFunc(k, unicode.IsSpace), "]")] = true
		}
	}
	trusted := len(keys) > 0
	for _, k := range keys {
		// A TOML basic string quotes as JSON does for these paths.
		q, _ := json.Marshal(k)
		trusted = trusted && tables[string(q)]
	}
	if trusted {
		return Trusted, ""
	}
	return Untrusted, "codex has not trusted kittymux's hooks yet, so it does not run them: " + codexTrustHow
}

// codexEvent is codex's name of a hook event in its trust keys:
// SessionStart is session_start.
func codexEvent(event string) string {
	var b strings.Builder
	for i, r := range event {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
