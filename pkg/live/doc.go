// Package live reads kitty's live windows: which window runs which agent
// (AgentWindows, from kitty's ls and the processes the OS shows), and which
// conversation each is in now (Records: what the agents write about their
// own running processes; JournalIDs: what kittymux's journal holds), and
// which one an agent a restore prompt resumed reports (Resumed). The
// scanner, save, recovery and `sessions list` all start from here.
package live
