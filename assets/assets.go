// Package assets holds the data files shipped inside the kittymux binary.
// resume-agents.json, the shipped agent definitions, is compiled in as Go:
// pkg/agents/shipped.go, generated from it by `go generate ./pkg/agents/`.
package assets

import _ "embed"

// KittyWatcher is the watcher `kittymux setup` installs for kitty: it starts
// the scanner where no systemd user manager does, and saves the layout on a
// confirmed quit. kitty loads it as Python, in its own process.
//
//go:embed kitty_watcher.py
var KittyWatcher []byte

// PiExtension is the extension `kittymux integration install pi` puts in
// pi's extensions directory: on session_start, agent_start and agent_end it
// runs `kittymux hook pi EVENT` as an agent's hooks do. "__KITTYMUX__"
// (with its quotes) stands for kittymux's path as a JSON string.
//
//go:embed kittymux-pi.ts
var PiExtension []byte

// OpenCodePlugin is the plugin `kittymux integration install opencode` puts
// in opencode's plugins directory: on a session's creation, each message and
// idle it runs `kittymux hook opencode EVENT`. "__KITTYMUX__" (with its
// quotes) stands for kittymux's path as a JSON string.
//
//go:embed kittymux-opencode.js
var OpenCodePlugin []byte
