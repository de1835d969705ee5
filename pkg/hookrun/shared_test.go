package hookrun

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestSharedDaemonHookRecordsNothing: codex 0.171.0 runs its hooks in its
// app-server daemon, whose parents lead to the window that started it
// (seen in TestRealConversationsCodex: every window's hook reported as that
// one). Such a hook records nothing and sets no user var; a hook run by
// codex in its window (codex --no-daemon) records as before.
func TestSharedDaemonHookRecordsNothing(t *testing.T) {
	daemon := []string{"/home/u/.codex/packages/app-server-daemon/releases/0.171.0-x86_64-unknown-linux-musl/bin/codex",
		"app-server", "--listen", "unix://", "--analytics-default-enabled", "--managed-daemon"}
	tui := []string{"/usr/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex", "--no-daemon"}
	for _, tc := range []struct {
		name     string
		argv     map[int][]string
		recorded bool
	}{
		{"run by the daemon", map[int][]string{5000: daemon, 4242: tui}, false},
		{"run by codex in its window", map[int][]string{5000: tui, 4242: tui}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, _, calls := setup(t, nil)
			o.Ancestors = func(int) []Proc { return []Proc{{4300, "sh"}, {5000, "codex"}, {4242, "codex"}, {4000, "bash"}} }
			o.Cmdline = func(pid int) []string { return tc.argv[pid] }
			_, err := Run(t.Context(), o, "codex", "SessionStart", strings.NewReader(payloads["codex"]["SessionStart"]))
			if tc.recorded {
				if err != nil {
					t.Fatal(err)
				}
				if recs := readJournal(t, o); len(recs) != 1 || len(*calls) != 1 {
					t.Errorf("journal %+v, user vars %q", recs, *calls)
				}
				return
			}
			if !errors.Is(err, ErrSharedServer) {
				t.Fatalf("err = %v, want ErrSharedServer", err)
			}
			if _, err := os.Stat(o.Paths.Journal()); err == nil || len(*calls) > 0 {
				t.Errorf("the daemon's hook wrote the journal or set user vars %q", *calls)
			}
		})
	}
}
