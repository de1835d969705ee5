// Package uservars names the user variables kittymux sets on agent windows.
// kitty keeps them on the window and save_as_session writes them as
// --var=K=V, so a raw save carries the ids the scanner or a save knew. The
// scanner and `sessions save` set them; the rewrite reads them back.
package uservars

const (
	// Agent is the name of the agent running in the window.
	Agent = "kittymux_agent"
	// Session is the conversation id of that agent.
	Session = "kittymux_session"
	// PID is the pid of the agent process Session belongs to. An id holds
	// for that process only: once the window runs another process of the
	// agent (the user quit and started a new conversation, a restored
	// prompt exec'd a new one), Session is stale and is not used. Whatever
	// sets Session sets PID with it.
	PID = "kittymux_pid"
)
