package grammar

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseHelp: the help styles of the CLI frameworks agent CLIs are built
// with, as each prints its options and subcommands.
func TestParseHelp(t *testing.T) {
	tests := []struct {
		name, prog, help string
		want             Grammar
	}{
		{
			name: "commander",
			prog: "claude",
			help: `Usage: claude [options] [command] [prompt]

Options:
  --add-dir <directories...>            Additional directories
  -d, --debug [filter]                  Enable debug mode
  --cloud [description|session_id|url]  Create a cloud session, or attach
  --allowedTools, --allowed-tools <tools...>
      Comma or space-separated list of tool names
  -p, --print                           Print response and exit. Explicitly
                                        --system-prompt[-file], --add-dir
  -m, --model <model>                   Model
  -h, --help                            Display help for command

Commands:
  mcp                                   Configure MCP servers
  plugin|plugins                        Manage plugins
  install [options] [target]            Install
`,
			want: Grammar{
				Value:       []string{"--add-dir", "--allowed-tools", "--allowedTools", "--model", "-m"},
				Optional:    []string{"--cloud", "--debug", "-d"},
				Variadic:    []string{"--add-dir", "--allowed-tools", "--allowedTools"},
				None:        []string{"--help", "--print", "-h", "-p"},
				Subcommands: []string{"install", "mcp", "plugin", "plugins"},
			},
		},
		{
			name: "yargs",
			prog: "gemini",
			help: `Usage: gemini [options] [command]

Commands:
  gemini mcp                   Manage MCP servers
  gemini extensions <command>  Manage extensions.  [aliases: extension]
  gemini [query..]             Launch Gemini CLI  [default]

Options:
  -d, --debug                     Run in debug mode  [boolean] [default: false]
  -m, --model                     Model  [string]
      --policy                    Policy files  [array]
  -o, --output-format             The format.  [string] [choices: "text", "json"]
      --port          port to listen on                                        [number] [default: 0]
      --mdns          enable mDNS service discovery (defaults hostname to 0.0.0.0)
                                                                          [boolean] [default: false]
`,
			want: Grammar{
				Value:       []string{"--model", "--output-format", "--policy", "--port", "-m", "-o"},
				Variadic:    []string{"--policy"},
				None:        []string{"--debug", "--mdns", "-d"},
				Subcommands: []string{"extension", "extensions", "mcp"},
			},
		},
		{
			name: "clap",
			prog: "codex",
			help: `Usage: codex [OPTIONS] [PROMPT]

Commands:
  exec              Run Codex non-interactively [aliases: e]
  apply             Apply the latest diff produced by Codex agent as a ` + "`git apply`" + ` to your local
                    working tree [aliases: a]

Options:
  -c, --config <key=value>
          Override a configuration value

      --enable <FEATURE>
          Enable a feature
  -i, --image <FILE>...
          Optional image(s)

          Possible values:
          - on-request: The model decides
  -r, --resume [<SESSION_ID>]
          Resume
      --oss
          Use open-source provider
`,
			want: Grammar{
				Value:       []string{"--config", "--enable", "--image", "-c", "-i"},
				Optional:    []string{"--resume", "-r"},
				Variadic:    []string{"--image", "-i"},
				None:        []string{"--oss"},
				Subcommands: []string{"a", "apply", "e", "exec"},
			},
		},
		{
			name: "cobra",
			prog: "crush",
			help: `Usage:
  crush [flags]
  crush [command]

Available Commands:
  completion  Generate the autocompletion script
  run         Run a single non-interactive prompt

Flags:
  -c, --cwd string       Current working directory
  -d, --debug            Debug
  -s, --session string   Continue a session
      --tags strings     Tags
      --timeout duration Timeout
  -y, --yolo             Automatically accept all permissions

Global Flags:
      --config string   config file
`,
			want: Grammar{
				Value:       []string{"--config", "--cwd", "--session", "--tags", "--timeout", "-c", "-s"},
				None:        []string{"--debug", "--yolo", "-d", "-y"},
				Subcommands: []string{"completion", "run"},
			},
		},
		{
			name: "click",
			prog: "hermes",
			help: `Usage: hermes [OPTIONS] COMMAND [ARGS]...

Options:
  -m, --model TEXT           Model to use
  --resume TEXT              Resume a session
  --mode [chat|agent]        Mode
  -c, --continue             Continue the latest session
  --help                     Show this message and exit.

Commands:
  chat    Start a chat
  config  Configure
`,
			want: Grammar{
				Value:       []string{"--mode", "--model", "--resume", "-m"},
				None:        []string{"--continue", "--help", "-c"},
				Subcommands: []string{"chat", "config"},
			},
		},
		{
			name: "argparse",
			prog: "aider",
			help: `usage: aider [-h] [--model MODEL] [files ...]

positional arguments:
  files                 files to edit with an LLM

options:
  -h, --help            show this help message and exit
  --model MODEL         Specify the model to use for the main chat
  -m MESSAGE, --message MESSAGE
                        Specify a single message to send the LLM
  --edit-format {diff,whole}
                        Edit format
  --yes-always          Always say yes to every confirmation
`,
			want: Grammar{
				Value: []string{"--edit-format", "--message", "--model", "-m"},
				None:  []string{"--help", "--yes-always", "-h"},
			},
		},
		{
			name: "equals forms and colour",
			prog: "x",
			help: "Options:\n  \x1b[1m--resume\x1b[0m[=<id>]  Resume\n  --model=<m>  Model\n  --color[=WHEN]  Colour\n",
			want: Grammar{
				Value:    []string{"--model"},
				Optional: []string{"--color", "--resume"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ParseHelp(tc.prog, tc.help)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestGrammarMerge: a subcommand's help adds its options; the root's arity
// wins where both list one.
func TestGrammarMerge(t *testing.T) {
	var g Grammar
	g.MergeHelp("droid", []string{"--help"}, "Options:\n  --fork <sessionId>  Fork\n\nCommands:\n  resume  Resume\n")
	g.MergeHelp("droid", []string{"resume", "--help"}, "Options:\n  --fork  Fork\n  --last  Latest\n\nCommands:\n  sub  Sub\n")
	want := Grammar{Value: []string{"--fork"}, None: []string{"--last"}, Subcommands: []string{"resume"}}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
