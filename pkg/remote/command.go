package remote

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// HostSocket stands for the kitty socket in the journal's key of a
// session a host's hook recorded: the host has no kitty of its own in
// that session, only an ssh connection.
const HostSocket = "ssh"

// CheckFlag is the argument of kittymux-resume that runs Check on the
// host.
const CheckFlag = "--remote-check"

// What the host is asked to do.
const (
	DoResume = "resume" // the hint's conversation, once the host's journal confirms it
	DoNew    = "new"    // a new conversation of the agent in the directory
	DoShell  = "shell"  // a shell in the directory
)

// hostScript runs on the host through `sh -c`: kittymux-resume where the
// host has it (the PATH of a command ssh runs is often shorter than a
// login's, so two usual places are added), else a line saying why and a
// login shell in the directory. It is fixed text: the values come after it
// as separate, quoted arguments ("$@"), never inside it.
const hostScript = `PATH="$PATH:$HOME/.local/bin:$HOME/go/bin"; ` +
	`if command -v kittymux-resume >/dev/null 2>&1; then exec kittymux-resume "$@"; fi; ` +
	`echo "kittymux is not installed on this host (no kittymux-resume on its PATH): a shell here instead; kittymux setup --remote there brings its agents back." >&2; ` +
	`prev=; for a in "$@"; do if [ "$prev" = --dir ]; then cd -- "$a" 2>/dev/null; fi; prev=$a; done; ` +
	`exec "${SHELL:-/bin/sh}" -l`

// CheckCommand is the remote command that asks the host's kittymux to do
// what (DoResume, DoNew, DoShell) for h: one string for the remote shell,
// every word quoted by mvdan.cc/sh (POSIX), the hint's values only as
// arguments of kittymux-resume, which checks them there.
func CheckCommand(h Hint, what string) (string, error) {
	words := []string{"sh", "-c", hostScript, "kittymux-resume", CheckFlag, "--do", what, "--agent", h.Agent, "--dir", h.Dir}
	if what == DoResume {
		words = append(words, "--id", h.ID)
	}
	q := make([]string, len(words))
	for i, w := range words {
		s, err := syntax.Quote(w, syntax.LangPOSIX)
		if err != nil {
			return "", err
		}
		q[i] = s
	}
	return strings.Join(q, " "), nil
}
