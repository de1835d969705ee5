// Package assets holds the data files shipped inside the kittymux binary.
package assets

import _ "embed"

// ResumeAgents is the shipped agent definitions (see pkg/agents). An entry of
// the user's ~/.config/kittymux/resume.json with the same name replaces one.
//
//go:embed resume-agents.json
var ResumeAgents []byte

// KittyWatcher is the watcher `kittymux setup` installs for kitty: it starts
// the scanner where no systemd user manager does, and saves the layout on a
// confirmed quit. kitty loads it as Python, in its own process.
//
//go:embed kitty_watcher.py
var KittyWatcher []byte
