// Package assets holds the data files shipped inside the kittymux binary.
package assets

import _ "embed"

// ResumeAgents is the shipped agent definitions (see pkg/agents). An entry of
// the user's ~/.config/kittymux/resume.json with the same name replaces one.
//
//go:embed resume-agents.json
var ResumeAgents []byte
