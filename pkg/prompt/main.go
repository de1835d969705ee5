package prompt

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/conversations"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/screenhist"
	"github.com/kittymux/kittymux/pkg/stagger"
	"github.com/kittymux/kittymux/pkg/version"
)

// Main is kittymux-resume: it returns an exit code only when it could not
// exec anything (or, from a shell's startup, when the answer is the shell).
func Main(args []string) int {
	if len(args) == 1 && args[0] == "--version" {
		fmt.Println(version.Get().Line("kittymux-resume"))
		return 0
	}
	if len(args) == 2 && args[0] == screenhist.ShowFlag {
		// A restored plain window's shell, before its first prompt.
		return screenhist.ShowMain(args[1])
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		// Run by a person, not from a session file: say what it is.
		fmt.Fprintf(os.Stderr, "kittymux-resume is the restore prompt kittymux writes into saved sessions.\n%v\n", resumerecord.ErrUsage)
		return 2
	}
	r, err := resumerecord.ParseArgs(args)
	p := paths.FromEnv()
	e := &Env{
		In: os.Stdin, Out: os.Stderr, Getenv: os.Getenv, LookPath: exec.LookPath,
		Paths: p,
		Exec: func(path string, argv, env []string) error {
			return syscall.Exec(path, argv, mergeEnv(os.Environ(), env))
		},
		IsTerminal: func() bool { return term.IsTerminal(int(os.Stdin.Fd())) },
	}
	if term.IsTerminal(int(os.Stdout.Fd())) {
		e.Out = os.Stdout
	}
	if err != nil {
		e.warn("kittymux: this window's restore record is not valid: %v", err)
		_ = e.shell(r)
		return 1
	}
	set, loadErr := agents.Load(p.UserAgents())
	if set == nil {
		e.warn("kittymux: agent definitions: %v", loadErr)
		_ = e.shell(r)
		return 1
	}
	// A missing or unsafe key leaves every record unsealed: each one then
	// asks, which is the safe way to fail.
	e.Key, _ = resumerecord.ReadKey(p.ResumeKey())
	e.Validate = func(r resumerecord.Record, sealed bool) (string, error) {
		return validate(set, e.LookPath, r, sealed)
	}
	e.LatestPerDir = func(agent string) bool {
		d, ok := set.Definition(agent)
		return ok && d.LatestScope == agents.ScopeCwd
	}
	e.NewArgv = func(r resumerecord.Record) ([]string, error) {
		c, ok := recognize.Argv(set, r.Argv)
		if !ok {
			return nil, fmt.Errorf("%s is not a known agent command", r.Argv[0])
		}
		return plan.ResumeArgv(set, c, plan.ModeNew, "")
	}
	e.ExactArgv = func(r resumerecord.Record, id string) ([]string, error) {
		c, ok := recognize.Argv(set, r.Argv)
		if !ok {
			return nil, fmt.Errorf("%s is not a known agent command", r.Argv[0])
		}
		return plan.ResumeArgv(set, c, plan.ModeExact, id)
	}
	e.Candidates = func(r resumerecord.Record, program string) []agents.Candidate {
		wd, _ := os.Getwd()
		var since time.Time
		if r.Since > 0 {
			since = time.Unix(r.Since, 0)
		}
		if agents.Listed(r.Agent) {
			// The agent's own CLI lists them, run as the resume would be.
			cands, err := conversations.ListCandidates(set, r.Agent, program, cmp.Or(r.Dir, wd), since, append(os.Environ(), r.Env...))
			if err != nil {
				e.warn("kittymux: %s did not list its conversations: %v", r.Agent, err)
			}
			return cands
		}
		return conversations.Candidates(set, r.Agent, cmp.Or(r.Dir, wd), since, conversations.EnvOver(r.Env, e.Getenv))
	}
	e.Outcome = func(o journal.Restore) { recordOutcome(e, o) }
	e.Slot = func(agent string) (time.Time, time.Duration) {
		now := e.clk().Now()
		interval, _ := stagger.Interval(p, os.Getenv)
		at, err := stagger.Slot(p.StateDir, agent, interval, now)
		if err != nil {
			e.warn("kittymux: %v (starting now)", err)
		}
		return at, interval
	}
	e.Conversation = func(r resumerecord.Record) conversations.Conversation {
		wd, _ := os.Getwd()
		return conversations.FindRun(set, r.Agent, r.ID, conversations.Run{Argv: r.Argv, Dir: wd, Getenv: conversations.EnvOver(r.Env, e.Getenv)})
	}
	if err := Run(e, r); err != nil {
		return 1
	}
	return 0
}

// validate checks r against the definitions: its argv is what kittymux
// writes, its environment is plain unless sealed, and its program is the
// agent as installed (or, sealed, as it ran in the saved window).
func validate(set *agents.Set, lookPath func(string) (string, error), r resumerecord.Record, sealed bool) (string, error) {
	if err := plan.Validate(set, r.Agent, plan.Mode(r.Mode), r.ID, r.Argv); err != nil {
		return "", err
	}
	for _, kv := range r.Env {
		// Sealed or not: an older kittymux kept such names when a printed
		// line named them.
		if why := agents.EnvNeverKept(kv); why != "" {
			return "", fmt.Errorf("--env %s: %s, and no record sets it", strings.SplitN(kv, "=", 2)[0], why)
		}
	}
	if !sealed {
		for _, kv := range r.Env {
			if why := agents.EnvNeedsSeal(kv, set.ConfigEnv()); why != "" {
				return "", fmt.Errorf("--env %s: %s, and only a record kittymux sealed may set it", strings.SplitN(kv, "=", 2)[0], why)
			}
		}
	}
	trust := recognize.Trust{LookPath: lookPath}
	if sealed {
		trust.Seen = r.Exe
	}
	return recognize.TrustedProgram(set, r.Agent, r.Argv, trust)
}

// recordOutcome adds where the window is to o and queues it for the
// journal, for `sessions restore` to report. It never stands in the way of
// the answer: no lock, no fsync (journal.QueueRestore), and an outcome that
// cannot be written is skipped.
func recordOutcome(e *Env, o journal.Restore) {
	j := e.journal()
	if j.Off {
		return
	}
	o.Dir, _ = os.Getwd()
	o.KittyPID, _ = strconv.Atoi(e.Getenv("KITTY_PID"))
	o.WindowID, _ = strconv.Atoi(e.Getenv("KITTY_WINDOW_ID"))
	o.PID = os.Getpid()
	_ = j.QueueRestore(o)
}

// mergeEnv sets each of set over base. A name left twice would be read from
// its first entry by some programs and from its last by others.
func mergeEnv(base, set []string) []string {
	if len(set) == 0 {
		return base
	}
	names := map[string]bool{}
	for _, kv := range set {
		k, _, _ := strings.Cut(kv, "=")
		names[k] = true
	}
	out := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		if k, _, _ := strings.Cut(kv, "="); !names[k] {
			out = append(out, kv)
		}
	}
	return append(out, set...)
}
