// Package e2etest holds what the end-to-end tests of pkg/e2e and
// pkg/e2e/conversations share: the harness of the real conversations (each
// agent CLI's TUI driven in a real kitty, talking to the model stand-in,
// killed and restored), the kittymux binaries the restored windows and the
// hooks run, and small helpers. It is imported by tests only.
package e2etest
