// Package e2e holds only tests: kittymux's commands against a real kitty
// under Xvfb (tests named TestReal*), with fake agents that record their
// argv and the real agent CLIs; conversations/ holds the real
// conversations with the agent CLIs.
package e2e
