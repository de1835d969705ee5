package procid

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kittymux/kittymux/pkg/statefile"
)

// An agent that rewrites its own command line (pi sets its process title,
// so the OS shows `pi` alone) reports the argv it started with through its
// kittymux integration, from inside the process: `kittymux hook` keeps it
// here, one file per process, named by its pid and holding its start. A
// reader takes it for that very process only (the same pid and start), and
// only where the OS shows the process's title alone; what the report names
// as the program is still checked against the file the process executes.
// The report is the process's own word, as its hook's conversation id is,
// never text a terminal showed.

// ArgvDirName is the directory under the state directory that holds the
// reports.
const ArgvDirName = "proc-argv"

// Bounds of one report: an argv longer than these is not kept.
const (
	maxArgs      = 256
	maxArgvBytes = 64 << 10
)

// errBadArgv: the report is not an argv kittymux keeps.
var errBadArgv = errors.New("argv is not kept: empty, too long, or holding a NUL")

type argvReport struct {
	Start string   `json:"start"`
	Argv  []string `json:"argv"`
}

// checkArgv reports whether argv is within the bounds of a report.
func checkArgv(argv []string) error {
	if len(argv) < 1 || len(argv) > maxArgs {
		return errBadArgv
	}
	n := 0
	for _, a := range argv {
		n += len(a) + 1
		if strings.ContainsRune(a, 0) {
			return errBadArgv
		}
	}
	if n > maxArgvBytes {
		return errBadArgv
	}
	return nil
}

// WriteArgv keeps argv as the one id's process started with, in
// stateDir's ArgvDirName, and removes the reports of processes that are
// gone. id must know its start.
func WriteArgv(stateDir string, id ID, argv []string) error {
	if id.PID <= 0 || id.Start == "" {
		return fmt.Errorf("keep argv of pid %d: its start is not known", id.PID)
	}
	if err := checkArgv(argv); err != nil {
		return fmt.Errorf("keep argv of pid %d: %w", id.PID, err)
	}
	data, err := json.Marshal(argvReport{Start: id.Start, Argv: argv})
	if err != nil {
		return err
	}
	top, err := statefile.Make(stateDir)
	if err != nil {
		return err
	}
	defer top.Close()
	d, err := top.MakeSub(ArgvDirName)
	if err != nil {
		return err
	}
	defer d.Close()
	if ents, err := d.ReadDir(); err == nil {
		for _, e := range ents {
			if pid, err := strconv.Atoi(e.Name()); err == nil && pid != id.PID && Start(pid) == "" {
				_ = d.Remove(e.Name())
			}
		}
	}
	return d.WriteFile(strconv.Itoa(id.PID), data)
}

// ReadArgv is the argv reported for the process id (its start known and
// the same as the report's), from stateDir's ArgvDirName.
func ReadArgv(stateDir string, id ID) ([]string, bool) {
	if id.PID <= 0 || id.Start == "" || stateDir == "" {
		return nil, false
	}
	// The directory is checked as every state directory is (the user's,
	// not a link) and the file must be a regular file, not a link.
	d, err := statefile.Open(filepath.Join(stateDir, ArgvDirName))
	if err != nil {
		return nil, false
	}
	defer d.Close()
	data, err := d.ReadFile(strconv.Itoa(id.PID))
	if err != nil || len(data) > 2*maxArgvBytes {
		return nil, false
	}
	var r argvReport
	if json.Unmarshal(data, &r) != nil || r.Start != id.Start || checkArgv(r.Argv) != nil {
		return nil, false
	}
	return r.Argv, true
}
