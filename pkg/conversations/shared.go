package conversations

import (
	"fmt"
	"os"
	"strings"

	"github.com/kittymux/kittymux/pkg/agents"
)

// heldByShared is the agent's shared server (Code.SharedServer: codex
// 0.171.0's app-server daemon) holding the conversation's file open, for a
// run that would open it apart from that server (Code.Apart); nil when no
// server holds it or the run goes through the server. The daemon keeps a
// thread after the TUI that ran it there is gone (kitty died), and codex
// run apart (--no-daemon, -c: how kittymux's exact codex records run)
// shows "This conversation is open in another app" and waits; a TUI
// through the daemon (`codex resume <id>`) opens it.
func heldByShared(agent, file, id string, argv []string) *Held {
	code := agents.CodeOf(agent)
	if code == nil || code.SharedServer == nil || code.Apart == nil || file == "" || !code.Apart(argv) {
		return nil
	}
	want, err := os.Stat(file)
	if err != nil {
		return nil
	}
	pid, cmd := serverHolding(code.SharedServer, want)
	if pid <= 1 {
		return nil
	}
	h := &Held{PID: pid, Runs: fmt.Sprintf("in %s's shared server (%s)", agent, strings.Join(cmd, " "))}
	for _, w := range code.SharedAttach {
		h.Attach = append(h.Attach, strings.ReplaceAll(w, agents.IDPlaceholder, id))
	}
	return h
}
