// Package conversations holds only tests: real conversations of the agent
// CLIs gemini, opencode and pi with the model stand-in (modelstub), in a
// real kitty that is killed and restored. claude's and codex's are in
// pkg/e2e: CI runs the two packages at once. The harness is e2etest's.
package conversations
