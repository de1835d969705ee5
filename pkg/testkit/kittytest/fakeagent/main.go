// Command fakeagent stands in for the agent CLIs (claude, codex, gemini, ...)
// in tests. It is installed under each agent's name; argv[0]'s base name says
// which agent it plays.
//
// Every run appends one JSON line to the file named by $FAKEAGENT_LOG:
// {"name", "args", "cwd", "pid", "ppid", "env"}. With --help (or -h, or a
// `help` subcommand) it prints a help text with that agent's real flags and
// exits 0, so flag probes have something to read. Otherwise it behaves like an
// interactive TUI: it prints a line and waits for SIGTERM, SIGHUP or SIGINT,
// staying the foreground process of its terminal. End of input is no reason
// to exit: a TUI does not read a line and stop.
//
// Knobs, from the environment:
//   - FAKEAGENT_EXIT=N: exit with status N right after logging (a one-shot run).
//   - FAKEAGENT_TITLE=T: set the terminal title to T (OSC 2), as agents do.
//   - FAKEAGENT_TITLES=T1|T2|...: each SIGUSR2 sets the next title (an agent
//     starting and finishing runs).
//   - FAKEAGENT_CLAUDE_SESSION=ID: write sessions/<pid>.json under
//     $CLAUDE_CONFIG_DIR (else ~/.claude) as claude 2.1.197 does: pid,
//     sessionId, cwd, startedAt; removed on exit. SIGUSR1 rewrites it in
//     place with FAKEAGENT_CLAUDE_CLEAR as the id, as /clear does. With
//     ID "--resume", the id is the one after --resume on the command line
//     (as claude records the conversation it resumed).
//   - FAKEAGENT_HOOK=KITTYMUX and FAKEAGENT_HOOK_ID=ID: run hooks as claude
//     does (`KITTYMUX hook NAME EVENT` through /bin/sh, the event's JSON on
//     stdin): SessionStart at start, then each SIGUSR2 UserPromptSubmit and
//     Stop in turn. With FAKEAGENT_HOOK_LATE=1, SessionStart runs on the
//     first SIGUSR1 instead of at start (an agent whose hook reports its
//     id some time after it started).
//   - FAKEAGENT_CODEX_ROLLOUT=ID: create codex's
//     $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<ID>.jsonl (CODEX_HOME
//     else ~/.codex) with its session_meta line, and keep it open for
//     appending until exit, as codex 0.171.0 does when it runs in process
//     (`-c ...`, `--no-daemon`).
//   - FAKEAGENT_QUIT=CMD: read the terminal raw (stty) and exit 0 when CMD
//     is typed followed by Enter ("\r", or CSI 13 u as kitty's keyboard
//     protocol sends it), as codex's /quit.
//   - FAKEAGENT_BACKGROUND=FILE: start a helper that outlives the agent
//     (sleep, in its own session, inheriting what the agent did not mark
//     close-on-exec) and write its pid to FILE, before FAKEAGENT_EXIT.
//   - FAKEAGENT_IGNORE=SIG,...: ignore these of INT, TERM, HUP (an agent
//     that does not end on its clean way).
//
// It imports only the standard library: kittytest builds it from its embedded
// source outside any module.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// record must match kittytest.AgentRecord.
type record struct {
	Name string            `json:"name"`
	Args []string          `json:"args"`
	Cwd  string            `json:"cwd"`
	PID  int               `json:"pid"`
	PPID int               `json:"ppid"`
	Env  map[string]string `json:"env,omitempty"`
}

// loggedEnv are the variables worth a test's look; plus any KITTY_*,
// KITTYMUX_* and FAKEAGENT_* variable.
var loggedEnv = []string{"TERM", "HOME", "PWD", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "NODE_OPTIONS", "BASH_ENV"}

func main() {
	name := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	args := os.Args[1:]
	answerAndExit(name, args)
	if title := os.Getenv("FAKEAGENT_TITLE"); title != "" {
		fmt.Printf("\x1b]2;%s\x07", title)
	}
	a := &agent{name: name, sigs: make(chan os.Signal, 1), quit: make(chan struct{}), ignored: ignoredSignals(),
		titles: strings.Split(os.Getenv("FAKEAGENT_TITLES"), "|"), events: []string{"UserPromptSubmit", "Stop"}}
	signal.Notify(a.sigs, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGUSR1, syscall.SIGUSR2)
	defer a.start()()
	fmt.Printf("fake %s running %s\n", name, strings.Join(args, " "))
	a.run()
}

// answerAndExit logs the run, and exits when it is a one-shot: --help,
// --version, FAKEAGENT_EXIT.
func answerAndExit(name string, args []string) {
	if err := logRun(name, args); err != nil {
		fmt.Fprintf(os.Stderr, "fake %s: %v\n", name, err)
		os.Exit(70)
	}
	if text, ok := helpFor(name, args); ok {
		fmt.Print(text)
		os.Exit(0)
	}
	if slices.Contains(args, "--version") {
		fmt.Printf("%s 0.0.0-fake\n", name)
		os.Exit(0)
	}
	if file := os.Getenv("FAKEAGENT_BACKGROUND"); file != "" {
		if err := background(file); err != nil {
			fmt.Fprintf(os.Stderr, "fake %s: background helper: %v\n", name, err)
			os.Exit(70)
		}
	}
	if s, ok := os.LookupEnv("FAKEAGENT_EXIT"); ok {
		code, _ := strconv.Atoi(s)
		os.Exit(code)
	}
}

// background starts FAKEAGENT_BACKGROUND's helper and writes its pid.
func background(file string) error {
	c := exec.Command("sleep", "600")
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		return err
	}
	return os.WriteFile(file, []byte(strconv.Itoa(c.Process.Pid)), 0o600)
}

// ignoredSignals are FAKEAGENT_IGNORE's.
func ignoredSignals() map[os.Signal]bool {
	ignored := map[os.Signal]bool{}
	for _, name := range strings.Split(os.Getenv("FAKEAGENT_IGNORE"), ",") {
		switch name {
		case "INT":
			ignored[syscall.SIGINT] = true
		case "TERM":
			ignored[syscall.SIGTERM] = true
		case "HUP":
			ignored[syscall.SIGHUP] = true
		}
	}
	return ignored
}

// agent is the fake agent running as a TUI.
type agent struct {
	name    string
	sigs    chan os.Signal
	quit    chan struct{} // closed when FAKEAGENT_QUIT's command is typed
	ignored map[os.Signal]bool
	record  string   // claude's sessions/<pid>.json, when written
	titles  []string // FAKEAGENT_TITLES still to set
	events  []string // the hook events each SIGUSR2 runs in turn
	// lateStart: the SessionStart hook waits for SIGUSR1.
	lateStart bool
}

// start does what the agent does as it starts (the quit reader, claude's
// record, the SessionStart hook, codex's rollout) and returns what undoes
// it at exit.
func (a *agent) start() (end func()) {
	if cmd := os.Getenv("FAKEAGENT_QUIT"); cmd != "" {
		go readQuit(cmd, a.quit)
	}
	var ends []func()
	if id := os.Getenv("FAKEAGENT_CLAUDE_SESSION"); id != "" {
		if id == "--resume" {
			id = ""
			if i := slices.Index(os.Args, "--resume"); i >= 0 && i+1 < len(os.Args) {
				id = os.Args[i+1]
			}
		}
		a.record = claudeRecord(id)
		ends = append(ends, func() { os.Remove(a.record) })
	}
	if os.Getenv("FAKEAGENT_HOOK_LATE") == "" {
		runHook(a.name, "SessionStart")
	} else {
		a.lateStart = true
	}
	if id := os.Getenv("FAKEAGENT_CODEX_ROLLOUT"); id != "" {
		if f := codexRollout(id); f != nil {
			ends = append(ends, func() { f.Close() })
		}
	}
	return func() {
		for _, end := range slices.Backward(ends) {
			end()
		}
	}
}

// run waits for signals until one ends the agent or its quit command is
// typed.
func (a *agent) run() {
	for {
		var sig os.Signal
		select {
		case sig = <-a.sigs:
		case <-a.quit:
			return
		}
		if a.ignored[sig] {
			fmt.Printf("fake %s ignores %v\n", a.name, sig)
			continue
		}
		switch sig {
		case syscall.SIGUSR1:
			if a.lateStart {
				a.lateStart = false
				runHook(a.name, "SessionStart")
			}
			if a.record != "" {
				claudeRecord(os.Getenv("FAKEAGENT_CLAUDE_CLEAR"))
			}
		case syscall.SIGUSR2:
			runHook(a.name, a.events[0])
			a.events[0], a.events[1] = a.events[1], a.events[0]
			if len(a.titles) > 0 && a.titles[0] != "" {
				fmt.Printf("\x1b]2;%s\x07", a.titles[0])
				a.titles = a.titles[1:]
			}
		default:
			return
		}
	}
}

// readQuit reads the terminal raw and closes quit once cmd and Enter come.
func readQuit(cmd string, quit chan<- struct{}) {
	save := exec.Command("stty", "-g")
	save.Stdin = os.Stdin
	saved, _ := save.Output()
	stty := exec.Command("stty", "raw", "-echo")
	stty.Stdin = os.Stdin
	_ = stty.Run()
	var got []byte
	buf := make([]byte, 256)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return
		}
		got = append(got, buf[:n]...)
		if bytes.Contains(got, []byte(cmd+"\r")) || bytes.Contains(got, []byte(cmd+"\x1b[13u")) {
			fmt.Printf("fake quits on %s\r\n", cmd)
			if s := strings.TrimSpace(string(saved)); s != "" {
				back := exec.Command("stty", s)
				back.Stdin = os.Stdin
				_ = back.Run()
			}
			close(quit)
			return
		}
	}
}

// runHook runs FAKEAGENT_HOOK as claude runs a hook command: through a
// shell, the event's JSON on stdin, waiting for it.
func runHook(name, event string) {
	bin := os.Getenv("FAKEAGENT_HOOK")
	if bin == "" {
		return
	}
	cwd, _ := os.Getwd()
	in, _ := json.Marshal(map[string]any{"session_id": os.Getenv("FAKEAGENT_HOOK_ID"), "cwd": cwd,
		"hook_event_name": event, "source": "startup", "transcript_path": "/dev/null"})
	cmd := exec.Command("/bin/sh", "-c", `"$0" hook "$1" "$2"`, bin, name, event)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "hook %s: %v\n", event, err)
	}
}

// claudeRecord writes claude's sessions/<pid>.json with id, in place (not
// by rename), as claude does, and returns its path.
func claudeRecord(id string) string {
	dir := os.Getenv("CLAUDE_CONFIG_DIR")
	if dir == "" {
		dir = filepath.Join(os.Getenv("HOME"), ".claude")
	}
	dir = filepath.Join(dir, "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	cwd, _ := os.Getwd()
	path := filepath.Join(dir, strconv.Itoa(os.Getpid())+".json")
	b, _ := json.Marshal(map[string]any{"pid": os.Getpid(), "sessionId": id, "cwd": cwd, "startedAt": 1767225600000,
		"version": "2.1.197", "kind": "interactive", "name": filepath.Base(cwd), "nameSource": "derived"})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	return path
}

// codexRollout creates codex's rollout file for conversation id and returns
// it open, as codex's recorder holds it for the life of the thread.
func codexRollout(id string) *os.File {
	home := os.Getenv("CODEX_HOME")
	if home == "" {
		home = filepath.Join(os.Getenv("HOME"), ".codex")
	}
	now := time.Now().UTC()
	dir := filepath.Join(home, "sessions", now.Format("2006"), now.Format("01"), now.Format("02"))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return nil
	}
	name := filepath.Join(dir, "rollout-"+now.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return nil
	}
	cwd, _ := os.Getwd()
	b, _ := json.Marshal(map[string]any{"timestamp": now.Format(time.RFC3339Nano), "type": "session_meta",
		"payload": map[string]any{"session_id": id, "id": id, "cwd": cwd, "originator": "codex-tui",
			"cli_version": "0.171.0", "thread_source": "user"}})
	_, _ = f.Write(append(b, '\n'))
	return f
}

func logRun(name string, args []string) error {
	path := os.Getenv("FAKEAGENT_LOG")
	if path == "" {
		return nil
	}
	cwd, _ := os.Getwd()
	r := record{Name: name, Args: args, Cwd: cwd, PID: os.Getpid(), PPID: os.Getppid(), Env: map[string]string{}}
	if r.Args == nil {
		r.Args = []string{}
	}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if slices.Contains(loggedEnv, k) || strings.HasPrefix(k, "KITTY_") ||
			strings.HasPrefix(k, "KITTYMUX_") || strings.HasPrefix(k, "FAKEAGENT_") {
			r.Env[k] = v
		}
	}
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	// One write per line: with O_APPEND, lines of concurrent runs do not mix.
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// helpFor returns the help text when args ask for help: a --help or -h
// anywhere, or a leading `help` subcommand. A subcommand before the flag
// (`codex resume --help`) selects that subcommand's help.
func helpFor(name string, args []string) (string, bool) {
	var words []string
	asked := false
	if len(args) > 0 && args[0] == "help" {
		asked, args = true, args[1:]
	}
	for _, a := range args {
		if a == "--help" || a == "-h" {
			asked = true
			break
		}
		if !strings.HasPrefix(a, "-") {
			words = append(words, a)
		}
	}
	if !asked {
		return "", false
	}
	// Longest known subcommand path first: "threads continue", then "threads".
	for n := len(words); n > 0; n-- {
		if text, ok := helps[name+" "+strings.Join(words[:n], " ")]; ok {
			return text, true
		}
	}
	if text, ok := helps[name]; ok {
		return text, true
	}
	return fmt.Sprintf("Usage: %s [options] [prompt]\n\nOptions:\n  -h, --help  Show help\n", name), true
}

// helps holds each agent's help, trimmed to the flags kittymux cares about,
// in the layout the real CLI prints (testdata/agents holds each version's help).
var helps = map[string]string{
	"claude": `Usage: claude [options] [command] [prompt]

Claude Code - starts an interactive session by default, use -p/--print for
non-interactive output

Arguments:
  prompt                                Your prompt

Options:
  --add-dir <directories...>            Additional directories to allow tool
                                        access to
  -c, --continue                        Continue the most recent conversation in
                                        the current directory
  -d, --debug [filter]                  Enable debug mode with optional category
                                        filtering
  --fork-session                        When resuming, create a new session ID
                                        instead of reusing the original
  -h, --help                            Display help for command
  --input-format <format>               Input format (only works with --print):
                                        "text" (default), or "stream-json"
  --model <model>                       Model for the current session. Provide
                                        an alias for the latest model (e.g.
                                        'sonnet' or 'opus') or a model's full
                                        name
  --output-format <format>              Output format (only works with --print):
                                        "text" (default), "json", or
                                        "stream-json"
  -p, --print                           Print response and exit (useful for
                                        pipes)
  -r, --resume [value]                  Resume a conversation by session ID, or
                                        open interactive picker with optional
                                        search term
  --session-id <uuid>                   Use a specific session ID for the
                                        conversation (must be a valid UUID)
  --settings <file-or-json>             Path to a settings JSON file or a JSON
                                        string to load additional settings from
  -v, --version                         Output the version number

Commands:
  doctor                                Check the health of your Claude Code
                                        auto-updater
  mcp                                   Configure and manage MCP servers
  update|upgrade                        Check for updates and install if
                                        available
`,
	"codex": `Codex CLI

If no subcommand is specified, options will be forwarded to the interactive CLI.

Usage: codex [OPTIONS] [PROMPT]
       codex [OPTIONS] <COMMAND> [ARGS]

Commands:
  exec        Run Codex non-interactively [aliases: e]
  review      Run a code review non-interactively
  login       Manage login
  mcp         Manage external MCP servers for Codex
  apply       Apply the latest diff produced by Codex agent as a ` + "`git apply`" + ` to your local
              working tree [aliases: a]
  resume      Resume a previous interactive session (picker by default; use --last to continue
              the most recent)
  fork        Fork a previous interactive session (picker by default; use --last to fork the
              most recent)
  help        Print this message or the help of the given subcommand(s)

Arguments:
  [PROMPT]
          Optional user prompt to start the session

Options:
  -c, --config <key=value>
          Override a configuration value that would otherwise be loaded from ` + "`~/.codex/config.toml`" + `
  -m, --model <MODEL>
          Model the agent should use
  -p, --profile <CONFIG_PROFILE>
          Configuration profile from config.toml to specify default options
  -C, --cd <DIR>
          Tell the agent to use the specified directory as its working root
  -h, --help
          Print help (see a summary with '-h')
  -V, --version
          Print version
`,
	"codex resume": `Resume a previous interactive session (picker by default; use --last to continue the most recent)

Usage: codex resume [OPTIONS] [SESSION_ID] [PROMPT]

Arguments:
  [SESSION_ID]
          Session id (UUID) or session name. UUIDs take precedence if it parses. If omitted, use
          --last to pick the most recent recorded session

  [PROMPT]
          Optional user prompt to start the session

Options:
  -c, --config <key=value>
          Override a configuration value that would otherwise be loaded from ` + "`~/.codex/config.toml`" + `
      --last
          Continue the most recent session without showing the picker
      --all
          Show all sessions (disables cwd filtering and shows CWD column)
  -m, --model <MODEL>
          Model the agent should use
  -h, --help
          Print help (see a summary with '-h')
`,
	"gemini": `Usage: gemini [options] [command]

Gemini CLI - Launch an interactive CLI, use -p/--prompt for non-interactive mode

Commands:
  gemini [query..]             Launch Gemini CLI  [default]
  gemini mcp                   Manage MCP servers
  gemini extensions <command>  Manage Gemini CLI extensions.

Positionals:
  query  Positional prompt. Defaults to one-shot; use -i/--prompt-interactive for interactive.

Options:
  -m, --model                     Model  [string]
  -p, --prompt                    Prompt. Appended to input on stdin (if any).  [string]
  -i, --prompt-interactive        Execute the provided prompt and continue in interactive mode  [string]
  -r, --resume                    Resume a previous session. Use "latest" for most recent or index number (e.g. --resume 5)  [string]
      --session-id                Use a specific session id (UUID) for the new session  [string]
      --list-sessions             List available sessions for the current project and exit.  [boolean]
  -y, --yolo                      Automatically accept all actions  [boolean] [default: false]
  -v, --version                   Show version number  [boolean]
  -h, --help                      Show help  [boolean]
`,
	"copilot": `Usage: copilot [options] [command]

GitHub Copilot CLI - An AI-powered coding assistant

Options:
  --continue                     Resume the most recent session
  -i, --interactive <prompt>     Start interactive mode and automatically execute this prompt
  --model <model>                Set the AI model to use
  -p, --prompt <text>            Execute a prompt in non-interactive mode
  -r, --resume[=sessionId]       Resume from a previous session (optionally specify session ID)
  --session-id <id>              Use a specific session ID for the new session
  -s, --silent                   Output only the agent response (no stats), useful for scripting with -p
  -v, --version                  Show version information
  -h, --help                     Display help for command
`,
	"opencode": `opencode [project]

start opencode tui

Commands:
  opencode run [message..]   run opencode with a message
  opencode attach <url>      attach to a running opencode server
  opencode serve             starts a headless opencode server
  opencode [project]         start opencode tui  [default]

Positionals:
  project  path to start opencode in  [string]

Options:
  -h, --help        show help  [boolean]
  -v, --version     show version number  [boolean]
  -m, --model       model to use in the format of provider/model  [string]
  -c, --continue    continue the last session  [boolean]
  -s, --session     session id to continue  [string]
      --prompt      prompt to use  [string]
      --agent       agent to use  [string]
`,
	"pi": `pi - AI coding assistant

Usage:
  pi [options] [@files...] [messages...]

Options:
  --provider <name>              Provider name
  --model <id>                   Model ID
  --api-key <key>                API key (defaults to env vars)
  --mode <mode>                  Output mode: text (default), json, or rpc
  --print, -p                    Non-interactive mode: process prompt and exit
  --continue, -c                 Continue previous session
  --resume, -r                   Select a session to resume
  --session <path|id>            Use specific session file or id
  --help, -h                     Show this help
  --version, -v                  Show version number
`,
	"qodercli": `Usage: qodercli [options] [command] [prompt]

Qoder CLI - starts an interactive session by default, use -p/--print for non-interactive output

Options:
  -c, --continue                 Continue the most recent conversation
  -r, --resume [id]              Resume a conversation by session ID
  --session-id <id>              Use a specific session ID
  -p, --print                    Print response and exit
  -i, --prompt-interactive       Run the prompt and continue interactively
  -w, --cwd <dir>                Working directory
  --model <model>                Model for the current session
  -v, --version                  Output the version number
  -h, --help                     Display help for command
`,
	"droid": `Usage: droid [options] [command] [prompt]

Factory Droid - interactive by default

Options:
  -r, --resume [sessionId]       Resume a session (the last one in the current folder with --last)
  --last                         With --resume: the most recent session in the current folder
  -m, --model <model>            Model to use
  -v, --version                  Output the version number
  -h, --help                     Display help for command

Commands:
  exec [options] [prompt]        Run non-interactively
  resume [sessionId]             Resume a session
`,
	"droid resume": `Usage: droid resume [options] [sessionId]

Resume a session

Options:
  --last                         Resume the most recent session in the current folder
  -h, --help                     Display help for command
`,
	"amp": `Usage: amp [options] [command]

Amp CLI

Options:
  -x, --execute [message]        Execute a message and exit (also when stdout is redirected)
  -m, --mode <mode>              Agent mode
  -V, --version                  Print the version
  -h, --help                     Display help

Commands:
  threads                        Manage threads
`,
	"amp threads": `Usage: amp threads [options] [command]

Manage threads

Commands:
  new                            Create a new thread
  continue [threadId]            Continue an existing thread
  list                           List threads
`,
	"amp threads continue": `Usage: amp threads continue [options] [threadId]

Continue an existing thread (T-...)

Options:
  --last                         Continue the most recent thread in this checkout
  -h, --help                     Display help
`,
	"crush": `Usage:
  crush [flags]
  crush [command]

Available Commands:
  run         Run a single non-interactive prompt

Flags:
  -c, --cwd string       Current working directory
      --continue         Continue the most recent session in the current directory
      --session string   Session id to resume
  -h, --help             help for crush
  -v, --version          version for crush
`,
	"cursor-agent": `Usage: cursor-agent [options] [command] [prompt...]

Options:
  --resume [chatId]              Resume a chat session
  --continue                     Continue the previous session
  -p, --print                    Print responses to console (non-interactive)
  --model <model>                Model to use
  -h, --help                     Display help for command

Commands:
  create-chat                    Create a new empty chat and return its id
`,
	"kimi": `Usage: kimi [OPTIONS]

Options:
  -r, --session [TEXT]     Session ID to resume; an unknown id creates it
  -C, --continue           Continue the previous session in the working directory
  -p, --prompt TEXT        Run the prompt non-interactively
  -m, --model TEXT         LLM model to use
  -h, --help               Show this message and exit.
`,
	"hermes": `usage: hermes [-h] [-c] [--resume ID] [-q QUERY] [--oneshot]

options:
  -h, --help            show this help message and exit
  -c, --continue        continue the most recent session
  --resume ID           resume a session by id, or "latest"
  -q, --query QUERY     run one query and exit
  --oneshot             run once and exit
`,
	"goose": `Usage: goose [COMMAND]

Commands:
  session  Start or resume interactive chat sessions
  run      Execute commands from an instruction file or stdin
  help     Print this message or the help of the given subcommand(s)

Options:
  -h, --help     Print help
  -V, --version  Print version
`,
	"goose session": `Start or resume interactive chat sessions

Usage: goose session [OPTIONS]

Options:
  -n, --name <NAME>              Name for the chat session
  -r, --resume                   Resume a previous session
      --session-id <SESSION_ID>  Session id to resume
  -h, --help                     Print help
`,
	"omp": `Usage: omp [options] [prompt]

Options:
  -c, --continue          Continue the most recent session
  -r, --resume [id]       Resume a session
  -p, --print             Print the response and exit
  -h, --help              Show help
`,
	"mastracode": `Usage: mastracode [options] [prompt]

Options:
  -p, --prompt <text>     Run a single prompt and exit
  -h, --help              Show help
`,
	"grok": `Usage: grok [options]

Options:
  -p, --prompt <prompt>   Process a single prompt and exit
  -k, --api-key <key>     Grok API key
  -m, --model <model>     Model to use
  -h, --help              Display help
`,
	"aider": `usage: aider [-h] [--model MODEL] [--message COMMAND] [FILE ...]

options:
  -h, --help            show this help message and exit
  --model MODEL         Specify the model to use for the main chat
  --message COMMAND, --msg COMMAND, -m COMMAND
                        Specify a single message to send the LLM, process reply then exit
`,
}

func init() {
	// kilo is opencode's fork with the same flags.
	helps["kilo"] = strings.ReplaceAll(helps["opencode"], "opencode", "kilo")
}
