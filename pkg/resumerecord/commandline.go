package resumerecord

import (
	"path/filepath"

	"github.com/kittymux/kittymux/pkg/agents"
)

// Program is the restore prompt's program name: a command line whose
// program has this name runs a record.
const Program = "kittymux-resume"

// FromCommandLine reads argv as the restore prompt's command line, the one
// place a command line becomes a record: its program is kittymux-resume by
// name, or bin (the path kittymux writes, "" for none) by any name, and its
// arguments a record ParseArgs accepts.
func FromCommandLine(argv []string, bin string) (Record, bool) {
	if len(argv) == 0 || (!(bin != "" && argv[0] == bin) && filepath.Base(argv[0]) != Program) {
		return Record{}, false
	}
	r, err := ParseArgs(argv[1:])
	return r, err == nil
}

// CommandLine is the restore prompt's command line that brings r back, the
// one place a record becomes a command line: bin and r's arguments, sealed
// with key (nil: not sealed; see Written).
func (r Record) CommandLine(bin string, key []byte, agentEnv []agents.AgentEnv) ([]string, error) {
	args, err := r.Written(key, agentEnv)
	if err != nil {
		return nil, err
	}
	return append([]string{bin}, args...), nil
}
