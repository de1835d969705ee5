// Package rewrite turns kitty's raw save into the published session file:
// each agent window's command becomes the restore prompt with the agent's
// exact resume argv; everything else stays byte for byte.
package rewrite

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kittysession"
	"github.com/kittymux/kittymux/pkg/resume"
	"github.com/kittymux/kittymux/pkg/uservars"
)

// Options is what the rewrite needs besides the raw file.
type Options struct {
	Agents *agents.Set
	// Check probes the agents the file holds (`sessions check`, cached) once
	// they are known; nil trusts the definitions.
	Check func(agentNames []string) agents.Probes
	// IDs are conversation ids known from elsewhere (the journal), by the
	// window id kitty-unserialize-data carries.
	IDs map[int]string
	// ResumeBin is the absolute path of kittymux-resume.
	ResumeBin string
	// Direct makes the restored windows resume without asking.
	Direct bool
	// Live are the agent windows of the kitty that saved, as `sessions save`
	// read them from ls (kitty window ids). They matter twice:
	//   - kitty saves a restored agent window's command as it launched it:
	//     the restore prompt, which has since exec'd the agent, or a new
	//     conversation, or nothing yet. For such a window the live command
	//     wins; without one the record's command is decided again.
	//   - a window the file leaves out (another OS window, without --all)
	//     still counts for the rules: "latest" is never chosen where another
	//     window could own the newest conversation.
	Live []agents.Window
	// Key seals each record written (resume.LoadOrCreateKey); nil writes
	// unsealed records, which the prompt runs only on a key press.
	Key []byte
	// Resolve follows symlinks to the file a program path names
	// (filepath.EvalSymlinks), recorded in the sealed record as the agent
	// that ran in the window; nil records none.
	Resolve func(string) (string, error)
}

// Window is what the rewrite did with one agent window.
type Window struct {
	WindowID int         `json:"window_id"`
	Agent    string      `json:"agent"`
	Mode     agents.Mode `json:"mode"`
	ID       string      `json:"id,omitempty"`
	Argv     []string    `json:"argv,omitempty"`
	Reason   string      `json:"reason"`
	// Unsure: the command keeps a word that may be a prompt, so the restore
	// prompt shows it and waits for a key even in auto mode.
	Unsure string `json:"unsure,omitempty"`
	Cwd    string `json:"cwd,omitempty"`
	Tab    string `json:"tab,omitempty"`
}

// Result is the published file and a line per agent window.
type Result struct {
	Data    []byte
	Windows []Window
	// Count is how many windows the file holds, agents or not.
	Count int
}

// promptRecord reads argv as the restore prompt's command line, as an earlier
// rewrite wrote it.
func promptRecord(argv []string, bin string) (resume.Record, bool) {
	if len(argv) == 0 || (argv[0] != bin && filepath.Base(argv[0]) != "kittymux-resume") {
		return resume.Record{}, false
	}
	r, err := resume.ParseArgs(argv[1:])
	return r, err == nil
}

// ErrEmpty: the raw save holds no window; publishing it would replace a good
// save with nothing.
var ErrEmpty = errors.New("the save holds no windows")

type found struct {
	ref       kittysession.WindowRef
	fromShell bool
	env       []string
	progLen   int // program words of the command: argv[0], or interpreter and script
}

// Rewrite rewrites raw, a file written by kitty's save_as_session.
func Rewrite(raw []byte, o Options) (*Result, error) {
	if o.Agents == nil {
		return nil, errors.New("rewrite: no agent definitions")
	}
	if o.ResumeBin == "" {
		return nil, errors.New("rewrite: no path for kittymux-resume")
	}
	f, err := kittysession.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("read kitty's save: %w", err)
	}
	refs := f.Windows()
	if len(refs) == 0 {
		return nil, ErrEmpty
	}
	live := make(map[int]agents.Window, len(o.Live))
	for _, w := range o.Live {
		live[w.ID] = w
	}
	var (
		ws       []agents.Window
		names    []string // the agents in the file, the ones worth probing
		byID     = map[int]found{}
		unsealed []Window // kept as saved before any decision
	)
	for _, ref := range refs {
		l := ref.Line.Launch
		if l.Unserialize == nil {
			continue // a hand-written launch: not from save_as_session
		}
		id := l.Unserialize.ID()
		var (
			cmd       agents.Command
			ok        bool
			fromShell bool
		)
		// kittymux_pid names a process of the kitty that saved: restored, the
		// window's processes are others. kitty writes it as --var=K=V.
		l.Options = slices.DeleteFunc(l.Options, func(opt kittysession.Option) bool {
			k, _, _ := strings.Cut(opt.Value, "=")
			return opt.Name == "--var" && opt.HasValue && k == uservars.PID
		})
		var argv []string
		switch c := l.Unserialize.CmdAtShellStartup; {
		case c.Set && c.IsList:
			argv, fromShell = c.List, true
		case c.Set:
			cmd, ok = o.Agents.RecognizeString(c.String)
			fromShell = true
		default:
			argv = l.Argv
		}
		if rec, isRec := promptRecord(argv, o.ResumeBin); isRec {
			// A window restored by an earlier save. Its record is carried
			// over only if kittymux sealed it: sealing an edited record
			// again would make it kittymux's. The agent running there now
			// is what kittymux sees, whatever the record said.
			sealed := rec.Verify(o.Key) == nil
			var lw agents.Window
			lw, ok = live[id]
			cmd = lw.Cmd
			if !ok && sealed {
				cmd, ok = o.Agents.RecognizeArgv(rec.Argv)
			}
			if !ok && !sealed {
				if c, known := o.Agents.RecognizeArgv(rec.Argv); known {
					unsealed = append(unsealed, Window{WindowID: id, Agent: c.Agent, Mode: agents.ModeAsSaved,
						Reason: "its restore record is not sealed by kittymux: kept as it is", Cwd: ref.Cwd, Tab: ref.TabTitle})
				}
			}
			if ok && len(cmd.Env) == 0 && sealed {
				cmd.Env = rec.Env
			}
		} else {
			if len(argv) > 0 {
				cmd, ok = o.Agents.RecognizeArgv(argv)
			}
			if lw, isLive := live[id]; !ok && isLive {
				// What kitty kept is no plain agent command (a typed
				// `export X=1; claude`, `cd api && claude`; a wrapper
				// script), yet an agent runs in the window: left alone,
				// the line would run again on restore. The agent that
				// runs is the one that comes back.
				cmd, ok = lw.Cmd, true
			}
		}
		if !ok {
			continue
		}
		// kitty writes the directory of the window's foreground process at
		// the moment of the save, which can be a short-lived child of the
		// agent (copilot runs helpers in /usr/bin): the agent's own
		// directory, as ls showed it, is where it must come back. kitty
		// expands $VAR in launch options, so a directory holding '$' is left
		// as kitty wrote it.
		if lw, isLive := live[id]; isLive && lw.Cmd.Agent == cmd.Agent && filepath.IsAbs(lw.Cwd) &&
			lw.Cwd != ref.Cwd && !strings.Contains(lw.Cwd, "$") {
			if err := l.SetOption("--cwd", lw.Cwd); err == nil {
				ref.Cwd = lw.Cwd
			}
		}
		if cmd, ok = cmd.Placed(ref.Cwd); !ok {
			unsealed = append(unsealed, Window{WindowID: id, Agent: cmd.Agent, Mode: agents.ModeAsSaved,
				Reason: fmt.Sprintf("the program %q is a relative path and the window's directory is unknown", cmd.Program), Tab: ref.TabTitle})
			continue
		}
		w := agents.Window{ID: id, Cwd: ref.Cwd, Cmd: cmd}
		vars := l.Vars()
		if v := vars[uservars.Session]; v != "" && vars[uservars.Agent] == cmd.Agent {
			w.KnownID, w.KnownIDFrom = v, "kitty user var "+uservars.Session
		} else if v := o.IDs[id]; v != "" {
			w.KnownID, w.KnownIDFrom = v, "journal"
		}
		ws = append(ws, w)
		names = append(names, cmd.Agent)
		byID[id] = found{ref: ref, fromShell: fromShell, env: cmd.Env, progLen: len(cmd.Program)}
	}
	for _, w := range o.Live {
		if _, inFile := byID[w.ID]; !inFile {
			ws = append(ws, w)
		}
	}
	var probes agents.Probes
	if o.Check != nil {
		probes = o.Check(names)
	}
	res := &Result{Count: len(refs)}
	for _, d := range o.Agents.Decide(ws, probes) {
		fd, inFile := byID[d.WindowID]
		if !inFile {
			continue
		}
		res.Windows = append(res.Windows, Window{WindowID: d.WindowID, Agent: d.Agent, Mode: d.Mode, ID: d.ID,
			Argv: d.Argv, Reason: d.Reason, Unsure: d.Unsure, Cwd: fd.ref.Cwd, Tab: fd.ref.TabTitle})
		if d.Mode == agents.ModeAsSaved || len(d.Argv) == 0 {
			continue
		}
		rec := resume.Record{Agent: d.Agent, Mode: string(d.Mode), ID: d.ID, Direct: o.Direct,
			FromShell: fd.fromShell, Confirm: d.Unsure != "", Tab: fd.ref.TabTitle, Env: fd.env, Exe: agents.Exes(o.Resolve, d.Argv, fd.progLen), Argv: d.Argv}
		args, err := rec.Written(o.Key, o.Agents.Names())
		if err != nil {
			// The prompt would refuse this record: keep the window as saved.
			res.Windows[len(res.Windows)-1].Mode = agents.ModeAsSaved
			res.Windows[len(res.Windows)-1].Reason = err.Error()
			continue
		}
		argv := append([]string{o.ResumeBin}, args...)
		l := fd.ref.Line.Launch
		if fd.fromShell {
			err = l.SetCmdAtShellStartupList(argv)
		} else {
			err = l.SetArgv(argv)
		}
		if err != nil {
			return nil, fmt.Errorf("rewrite window %s: %w", strconv.Itoa(d.WindowID), err)
		}
	}
	res.Windows = append(res.Windows, unsealed...)
	res.Data, err = f.Encode()
	if err != nil {
		return nil, fmt.Errorf("write session: %w", err)
	}
	return res, nil
}
