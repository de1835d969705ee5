package live

import "slices"

// IDLimit says why a window running agent with argv (its program and
// flags) may have no exact id whatever kittymux reads, as found on the real
// CLI; "" when nothing stands in the way.
//
// codex 0.171.0 by default runs its TUI as a client of one shared
// app-server daemon (`codex app-server --managed-daemon`, started by the
// first TUI and kept after it): the daemon holds every thread's rollout
// file and its writer lock, writes the threads into its state database
// without any client's pid, and runs every thread's hooks in its own
// environment. Nothing a window's processes hold or a file records ties a
// TUI to its thread. Run in process (--no-daemon, or options the daemon
// cannot serve such as -c) the TUI holds its rollout open itself.
func IDLimit(agent string, argv []string) string {
	if agent != "codex" || slices.ContainsFunc(argv, func(a string) bool {
		return a == "--no-daemon" || a == "-c" || a == "--config"
	}) {
		return ""
	}
	return "codex runs through its shared app-server daemon, which ties no window to its thread (its hooks run there " +
		"too): no exact id; `codex --no-daemon` runs in the window and gives one"
}
