package agents

// copilot: its --session-id chooses a new conversation's id up front.
var _ = Register(&Code{Name: "copilot", UpFront: "--session-id"})
