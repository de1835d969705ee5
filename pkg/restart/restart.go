package restart

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/procid"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/resumerecord"
)

// Client is what restart asks of one kitty; *kitty.Client is one.
type Client interface {
	LS(ctx context.Context) ([]kitty.OSWindow, error)
	LSRaw(ctx context.Context) ([]byte, error)
	SendText(ctx context.Context, match, text string) error
	GetText(ctx context.Context, match, extent string) (string, error)
	Do(ctx context.Context, cmd string, payload any, noResponse bool) (json.RawMessage, error)
}

// Procs signals processes and says whether they still run, each known by
// its pid and start as restart saw it: a process that got its pid since is
// neither signalled nor counted as running.
type Procs interface {
	// Signal sends sig to p; procid.ErrNotSame when p's pid is another
	// process's now (nothing sent), syscall.ESRCH when it is gone.
	Signal(p procid.ID, sig syscall.Signal) error
	// Alive reports whether p still runs.
	Alive(p procid.ID) bool
}

// Result is what became of one window: a line of `agents restart`.
type Result struct {
	Kitty    string `json:"kitty"`
	WindowID int    `json:"window_id"`
	// NewWindowID is the window the agent runs in now, when it is not the
	// same (an agent started without a shell comes back in its place).
	NewWindowID int    `json:"new_window_id,omitempty"`
	Tab         string `json:"tab"`
	Cwd         string `json:"cwd"`
	Agent       string `json:"agent"`
	ID          string `json:"id,omitempty"`
	// Command is the agent's command the restore prompt runs.
	Command string `json:"command,omitempty"`
	State   string `json:"state,omitempty"`
	Outcome string `json:"outcome"`
	Why     string `json:"why,omitempty"`
	// How is how the agent was ended and started again.
	How    string `json:"how,omitempty"`
	OldPID int    `json:"old_pid,omitempty"`
	NewPID int    `json:"new_pid,omitempty"`
}

// Runner restarts the agents of a plan.
type Runner struct {
	Client func(kitty.Instance) Client
	Procs  Procs
	// ResumeBin is kittymux-resume; Self is this kittymux, which waits in
	// the place of an agent started without a shell (wait-exec).
	ResumeBin, Self string
	Agents          *agents.Set
	// Key seals the records (resumerecord.LoadOrCreateKey).
	Key    []byte
	Bounds Bounds
	// Interval is the time between two restarts.
	Interval time.Duration
	// Poll is how often a wait looks again; 0 is 100 ms.
	Poll time.Duration
	// Sleep waits d or until ctx ends; nil is a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Report is called with each window's result as it is known.
	Report func(Result)
}

// Run restarts each target in turn, Interval apart, and reports every
// target (skipped ones too). With dry it says what it would do.
func (r *Runner) Run(ctx context.Context, ts []Target, dry bool) []Result {
	var out []Result
	started := false
	for _, t := range ts {
		res := r.base(t)
		switch {
		case t.Skip != "":
			res.Outcome, res.Why = Skipped, t.Skip
		case dry:
			res.Outcome = WouldRestart
			if _, err := r.prepare(t); err != nil {
				res.Outcome, res.Why = Failed, err.Error()
			} else {
				res.How = r.how(t)
			}
		default:
			if started && r.Interval > 0 {
				if err := r.sleep(ctx, r.Interval); err != nil {
					res.Outcome, res.Why = Failed, "stopped: "+err.Error()
					break
				}
			}
			started = true
			r.restart(ctx, t, &res)
		}
		if r.Report != nil {
			r.Report(res)
		}
		out = append(out, res)
	}
	return out
}

func (r *Runner) base(t Target) Result {
	res := Result{Kitty: t.Kitty.Socket, WindowID: t.Window.ID, Tab: t.TabTitle, Cwd: t.Agent.Cwd,
		Agent: t.Agent.Cmd.Agent, ID: t.Decision.ID, State: t.State, OldPID: t.Agent.PID}
	if t.Skip == "" {
		res.Command = recognize.Quote(t.Decision.Argv)
	}
	return res
}

// how says in words what restart does with t.
func (r *Runner) how(t Target) string {
	end := EndingOf(t.Agent.Cmd.Agent).String()
	if t.Agent.PID == t.Window.PID {
		return end + ", then the restore prompt in an overlay that takes the window's place"
	}
	sh, _ := shellOf(t.Window)
	return end + ", then the restore prompt typed into " + sh
}

// prepared is what a restart needs, checked before anything is ended.
type prepared struct {
	argv  []string // kittymux-resume and its record
	shell string   // the shell to type into; "" for an agent started directly
}

// prepare builds t's restore command and checks it can be run in t's
// window; an error leaves the agent running.
func (r *Runner) prepare(t Target) (prepared, error) {
	var p prepared
	direct := t.Agent.PID == t.Window.PID
	if !direct {
		sh, err := shellOf(t.Window)
		if err != nil {
			return p, err
		}
		p.shell = sh
	}
	cmd := t.Agent.Cmd
	rec := resumerecord.Record{Agent: t.Decision.Agent, Mode: plan.ModeExact, ID: t.Decision.ID, Direct: true,
		FromShell: !direct, Tab: t.TabTitle, Dir: t.Agent.Cwd, Env: cmd.Env, Exe: t.Agent.Seen,
		Argv: t.Decision.Argv}
	argv, err := rec.CommandLine(r.ResumeBin, r.Key, r.Agents.ConfigEnv())
	if err != nil {
		return p, fmt.Errorf("its restore record: %w", err)
	}
	p.argv = argv
	if p.shell != "" {
		// Checked now: a line the shell could misread is never typed.
		if _, err := typeLine(p.shell, t.Agent.Cwd, p.argv); err != nil {
			return p, err
		}
	}
	return p, nil
}

func (r *Runner) restart(ctx context.Context, t Target, res *Result) {
	fail := func(format string, a ...any) {
		res.Outcome, res.Why = Failed, fmt.Sprintf(format, a...)
	}
	p, err := r.prepare(t)
	if err != nil {
		fail("%v", err)
		return
	}
	c := r.Client(t.Kitty)
	match := "id:" + strconv.Itoa(t.Window.ID)
	where := t.Window.ID
	if p.shell == "" {
		// Started directly, the agent is the window's own process: when it
		// ends, kitty closes the window. An overlay over it first keeps the
		// window's place (kitty removes only the ended window from the
		// group, and the layout places groups); in it kittymux waits for
		// the agent to end, then runs the restore prompt.
		where, err = r.overlay(ctx, c, t, p.argv)
		if err != nil {
			fail("open the window's replacement: %v", err)
			return
		}
	}
	how, err := r.end(ctx, c, t, match)
	res.How = how
	if err != nil {
		if p.shell == "" {
			_, _ = c.Do(ctx, "close-window", map[string]any{"match": "id:" + strconv.Itoa(where)}, false)
		}
		fail("%v", err)
		return
	}
	if p.shell != "" {
		if err := r.typeResume(ctx, c, t, p); err != nil {
			fail("%v", err)
			return
		}
		res.How += ", the restore prompt typed into " + p.shell
	} else {
		res.NewWindowID = where
		res.How += ", the restore prompt in window " + strconv.Itoa(where) + " in its place"
	}
	pid, err := r.waitAgent(ctx, c, t, where)
	if err != nil {
		fail("%v", err)
		return
	}
	res.Outcome, res.NewPID = Restarted, pid
}

// end ends t's agent: its clean way, then SIGTERM, then SIGKILL, each
// with its bound, until none of its processes runs.
func (r *Runner) end(ctx context.Context, c Client, t Target, match string) (string, error) {
	e := EndingOf(t.Agent.Cmd.Agent)
	b := r.bounds()
	steps := []struct {
		sig  syscall.Signal
		wait time.Duration
	}{{e.Signal, b.Clean}, {syscall.SIGTERM, b.Term}, {syscall.SIGKILL, b.Kill}}
	if e.Signal == syscall.SIGTERM {
		steps = slices.Delete(steps, 1, 2)
	}
	if len(t.Procs) == 0 || !r.Procs.Alive(t.Procs[0]) {
		// Between the look and now (the question) the agent ended, and its
		// pid may be another process's: nothing is typed nor signalled.
		return "", fmt.Errorf("%s (pid %d) is no longer the process seen (it ended, or its pid is another process's now): nothing was signalled",
			t.Agent.Cmd.Agent, t.Agent.PID)
	}
	var done []string
	for i, s := range steps {
		var err error
		if i == 0 && s.sig == 0 {
			err = r.typeQuit(ctx, c, match, e)
			done = append(done, e.String())
		} else {
			// The clean signal goes to the agent's outermost process, as
			// its launcher expects; the later ones to each of its
			// processes still running (a launcher may not pass them on).
			ps := t.Procs[:1]
			if i > 0 {
				ps = slices.DeleteFunc(slices.Clone(t.Procs), func(p procid.ID) bool { return !r.Procs.Alive(p) })
			}
			for _, p := range ps {
				if e := r.Procs.Signal(p, s.sig); e != nil && err == nil {
					err = e
				}
			}
			done = append(done, agents.SignalName(s.sig))
		}
		if err != nil && !errors.Is(err, syscall.ESRCH) {
			return strings.Join(done, ", "), fmt.Errorf("end %s (pid %d): %w", t.Agent.Cmd.Agent, t.Agent.PID, err)
		}
		if r.waitGone(ctx, t.Procs, s.wait) {
			how := "ended with " + done[0]
			if len(done) > 1 {
				how = "did not end with " + strings.Join(done[:len(done)-1], " nor ") + ": ended with " + done[len(done)-1]
			}
			return how, nil
		}
	}
	return "", fmt.Errorf("%s (pid %d) did not end with %s", t.Agent.Cmd.Agent, t.Agent.PID, strings.Join(done, ", "))
}

// typeQuit types e's quit command into the window, and Enter once the
// command shows (a fast burst of keys reads as a paste to some TUIs).
func (r *Runner) typeQuit(ctx context.Context, c Client, match string, e agents.Ending) error {
	if err := c.SendText(ctx, match, e.Typed); err != nil {
		return err
	}
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if s, err := c.GetText(ctx, match, "screen"); err == nil && strings.Contains(s, e.Typed) {
			break
		}
		if err := r.sleep(ctx, r.poll()); err != nil {
			return err
		}
	}
	return c.SendText(ctx, match, e.Enter)
}

// waitGone waits up to d until none of ps runs.
func (r *Runner) waitGone(ctx context.Context, ps []procid.ID, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if !slices.ContainsFunc(ps, r.Procs.Alive) {
			return true
		}
		if time.Now().After(deadline) || r.sleep(ctx, r.poll()) != nil {
			return false
		}
	}
}

// typeResume types the restore command into t's shell once the shell is
// back in the foreground.
func (r *Runner) typeResume(ctx context.Context, c Client, t Target, p prepared) error {
	var w *kitty.Window
	deadline := time.Now().Add(r.bounds().Term)
	for {
		ls, err := c.LS(ctx)
		if err != nil {
			return fmt.Errorf("after the agent ended: %w", err)
		}
		if w = find(ls, t.Window.ID); w == nil {
			return errors.New("the window closed when the agent ended")
		}
		if shellInFront(*w) {
			break
		}
		if time.Now().After(deadline) {
			return errors.New("the shell did not come back to the foreground after the agent ended")
		}
		if err := r.sleep(ctx, r.poll()); err != nil {
			return err
		}
	}
	dir := t.Agent.Cwd
	if w.Cwd == dir {
		dir = ""
	}
	line, err := typeLine(p.shell, dir, p.argv)
	if err != nil {
		return err
	}
	return c.SendText(ctx, "id:"+strconv.Itoa(t.Window.ID), line+"\r")
}

// shellInFront: the window's only foreground process is its shell.
func shellInFront(w kitty.Window) bool {
	for _, p := range w.ForegroundProcesses {
		if p.PID != w.PID {
			return false
		}
	}
	return true
}

func find(ls []kitty.OSWindow, id int) *kitty.Window {
	for _, ref := range kitty.Windows(ls) {
		if ref.Window.ID == id {
			return ref.Window
		}
	}
	return nil
}

// overlay opens, over t's window, the window that takes its place: kittymux
// waiting for the agent to end, then the restore prompt. It returns the new
// window's id.
func (r *Runner) overlay(ctx context.Context, c Client, t Target, resumeArgv []string) (int, error) {
	match := "id:" + strconv.Itoa(t.Window.ID)
	groups, focused, err := lsGroups(ctx, c)
	if err != nil {
		return 0, err
	}
	p := r.overlayPayload(t, resumeArgv)
	if groups != nil {
		// kitty 0.40 puts the overlay over the window next_to names; 0.32
		// to 0.39 list groups but put it over the active window. The
		// groups say which happened.
		id, err := launch(ctx, c, p)
		if err != nil {
			return 0, err
		}
		after, _, err := lsGroups(ctx, c)
		if err == nil && after[id] != 0 && after[id] == groups[t.Window.ID] {
			return id, nil
		}
		_, _ = c.Do(ctx, "close-window", map[string]any{"match": "id:" + strconv.Itoa(id)}, false)
	}
	// Older kitty puts an overlay over the active window: make t's window
	// the active one for the launch, then give the focus back.
	if _, err := c.Do(ctx, "focus-window", map[string]any{"match": match}, false); err != nil {
		return 0, fmt.Errorf("focus window %d: %w", t.Window.ID, err)
	}
	id, err := launch(ctx, c, p)
	if focused != 0 && focused != t.Window.ID {
		_, _ = c.Do(ctx, "focus-window", map[string]any{"match": "id:" + strconv.Itoa(focused)}, false)
	}
	return id, err
}

func (r *Runner) overlayPayload(t Target, resumeArgv []string) map[string]any {
	match := "id:" + strconv.Itoa(t.Window.ID)
	args := []string{r.Self, "agents", "wait-exec", "--pid", strconv.Itoa(t.Agent.PID)}
	if len(t.Procs) > 0 && t.Procs[0].Start != "" {
		args = append(args, "--start", t.Procs[0].Start)
	}
	args = append(append(args, "--"), resumeArgv...)
	p := map[string]any{"type": "overlay-main", "match": match, "next_to": match, "keep_focus": true,
		"args": args, "cwd": t.Agent.Cwd}
	if t.Window.TitleOverridden {
		p["window_title"] = t.Window.Title
	}
	var env []string
	for k, v := range t.Window.Env {
		if !strings.HasPrefix(k, "KITTY_") && k != "WINDOWID" && k != "TERM" && k != "TERMINFO" && k != "COLORTERM" {
			env = append(env, k+"="+v)
		}
	}
	slices.Sort(env)
	if len(env) > 0 {
		p["env"] = env
	}
	var vars []string
	for k, v := range t.Window.UserVars {
		if !strings.HasPrefix(k, "kittymux_") {
			vars = append(vars, k+"="+v)
		}
	}
	slices.Sort(vars)
	if len(vars) > 0 {
		p["var"] = vars
	}
	return p
}

func launch(ctx context.Context, c Client, p map[string]any) (int, error) {
	data, err := c.Do(ctx, "launch", p, false)
	if err != nil {
		return 0, err
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return 0, fmt.Errorf("kitty @ launch: %w: data %.40q", kitty.ErrBadReply, data)
	}
	id, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("kitty @ launch: %w: window id %q", kitty.ErrBadReply, s)
	}
	return id, nil
}

// lsGroups returns, by window id, the id of the window group holding it
// (nil when kitty does not list groups: before 0.32), and the focused
// window.
func lsGroups(ctx context.Context, c Client) (map[int]int, int, error) {
	raw, err := c.LSRaw(ctx)
	if err != nil {
		return nil, 0, err
	}
	var ls []struct {
		Tabs []struct {
			Groups []struct {
				ID      int   `json:"id"`
				Windows []int `json:"windows"`
			} `json:"groups"`
			Windows []struct {
				ID        int  `json:"id"`
				IsFocused bool `json:"is_focused"`
			} `json:"windows"`
		} `json:"tabs"`
	}
	if err := json.Unmarshal(raw, &ls); err != nil {
		return nil, 0, fmt.Errorf("kitty @ ls: %w: %v", kitty.ErrBadReply, err)
	}
	var groups map[int]int
	focused := 0
	for _, o := range ls {
		for _, t := range o.Tabs {
			for _, g := range t.Groups {
				if groups == nil {
					groups = map[int]int{}
				}
				for _, w := range g.Windows {
					groups[w] = g.ID
				}
			}
			for _, w := range t.Windows {
				if w.IsFocused {
					focused = w.ID
				}
			}
		}
	}
	return groups, focused, nil
}

// waitAgent waits until window id runs t's agent again, in a new process,
// and returns its pid.
func (r *Runner) waitAgent(ctx context.Context, c Client, t Target, id int) (int, error) {
	deadline := time.Now().Add(r.bounds().Start)
	for {
		ls, err := c.LS(ctx)
		if err == nil {
			w := find(ls, id)
			if w == nil {
				return 0, fmt.Errorf("window %d closed before %s started again", id, t.Agent.Cmd.Agent)
			}
			for _, p := range w.ForegroundProcesses {
				if p.PID == t.Agent.PID {
					continue
				}
				if cmd, ok := recognize.Argv(r.Agents, p.Cmdline); ok && cmd.Agent == t.Agent.Cmd.Agent {
					return p.PID, nil
				}
			}
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("%s did not start again in window %d within %s: see the window", t.Agent.Cmd.Agent, id, r.bounds().Start)
		}
		if err := r.sleep(ctx, r.poll()); err != nil {
			return 0, err
		}
	}
}

func (r *Runner) bounds() Bounds {
	if r.Bounds == (Bounds{}) {
		return DefaultBounds
	}
	return r.Bounds
}

func (r *Runner) poll() time.Duration {
	if r.Poll > 0 {
		return r.Poll
	}
	return 100 * time.Millisecond
}

func (r *Runner) sleep(ctx context.Context, d time.Duration) error {
	if r.Sleep != nil {
		return r.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
