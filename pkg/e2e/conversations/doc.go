// Package conversations holds only tests: real conversations of the agent CLIs
// gemini, opencode and pi with the model stand-in (modelstub), in a real
// kitty that is killed and restored.
package conversations
