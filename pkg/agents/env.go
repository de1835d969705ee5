package agents

import (
	"fmt"
	"strings"
)

// Environment a record may set only when it is sealed: kittymux saw it on
// the running agent (a typed `NODE_OPTIONS=… claude`). From a record edited
// by hand, each of these could run code or move the agent to another
// configuration, another account or another server with the user's key.
// docs/trust.md lists the same names. A trailing "*" is a prefix. Names are
// compared case-insensitively: some programs read lowercase variants
// (http_proxy, npm_config_*).
var sealOnlyEnv = []string{
	// The dynamic loader and libc: code loaded into any program.
	"LD_*", "DYLD_*", "GLIBC_TUNABLES", "GCONV_PATH", "LOCPATH", "NLSPATH", "HOSTALIASES", "RES_OPTIONS",
	"LOCALDOMAIN", "MALLOC_*",
	// Where programs, homes and configuration are found.
	"PATH", "HOME", "XDG_*", "TMPDIR", "USER", "LOGNAME", "SHELL", "ZDOTDIR",
	// Shells: agents run their tools through one.
	"BASH_ENV", "ENV", "BASH_*", "SHELLOPTS", "BASHOPTS", "IFS", "CDPATH", "PS4", "PROMPT_COMMAND", "GLOBIGNORE",
	// Interpreters and package managers: preloads, module paths, options.
	"NODE_*", "NPM_CONFIG_*", "YARN_*", "PNPM_*", "BUN_*", "DENO_*", "UV_*", "PIP_*", "PYTHON*", "VIRTUAL_ENV",
	"CONDA_*", "PERL5*", "PERLLIB", "PERL_*", "RUBY*", "GEM_*", "BUNDLE_*", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
	"JDK_JAVA_OPTIONS", "CLASSPATH", "LUA_*", "TCLLIBPATH",
	// Programs agents start on the user's behalf.
	"GIT_*", "EDITOR", "VISUAL", "PAGER", "BROWSER", "LESSOPEN", "LESSCLOSE", "SSH_*", "SUDO_ASKPASS",
	// TLS trust and proxies: a key sent to someone else.
	"SSL_CERT_FILE", "SSL_CERT_DIR", "SSLKEYLOGFILE", "OPENSSL_*", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE",
	"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "GRPC_*",
	// The agents' own configuration, from their documentation and the
	// names in the installed CLIs: claude (CLAUDE_CONFIG_DIR, CLAUDE_ENV_FILE
	// is sourced, CLAUDE_CODE_SHELL_PREFIX wraps every command,
	// ANTHROPIC_BASE_URL), codex (CODEX_HOME, CODEX_SQLITE_HOME,
	// OPENAI_BASE_URL), gemini (GEMINI_CLI_HOME, GEMINI_CLI_TRUST_WORKSPACE,
	// GOOGLE_APPLICATION_CREDENTIALS, GOOGLE_GEMINI_BASE_URL), copilot
	// (COPILOT_HOME, COPILOT_ALLOW_ALL, GH_TOKEN), opencode (OPENCODE_CONFIG,
	// OPENCODE_CONFIG_DIR, OPENCODE_CONFIG_CONTENT), pi (PI_CODING_AGENT_DIR),
	// and the rest by their prefix. Any defined agent's NAME_* is added.
	"ANTHROPIC_*", "CLAUDE_*", "OPENAI_*", "CODEX_*", "GEMINI_*", "GOOGLE_*", "VERTEX_*", "CLOUD_ML_*", "COPILOT_*",
	"GH_*", "GITHUB_*", "OPENCODE_*", "KILO_*", "KILOCODE_*", "PI_*", "QODER_*", "FACTORY_*", "DROID_*", "AMP_*",
	"CRUSH_*", "CURSOR_*", "KIMI_*", "MOONSHOT_*", "HERMES_*", "GOOSE_*", "OMP_*", "MASTRA_*", "MASTRACODE_*",
	"GROK_*", "XAI_*", "AIDER_*", "JUNIE_*", "AWS_*", "AZURE_*", "OPENROUTER_*", "OLLAMA_*", "LITELLM_*",
	// kittymux's own.
	"KITTYMUX_*", "KITTY_*",
}

// EnvNeedsSeal reports why an assignment NAME=VALUE may come only from a
// sealed record, or "" when any record may set it. agentNames are the
// defined agents: each one's NAME_* is its own configuration.
func EnvNeedsSeal(kv string, agentNames []string) string {
	name, _, _ := strings.Cut(kv, "=")
	up := strings.ToUpper(name)
	for _, p := range sealOnlyEnv {
		if pre, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(up, pre) || up == p {
			return fmt.Sprintf("%s loads code or changes the agent's configuration", name)
		}
	}
	for _, a := range agentNames {
		pre := strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(a)) + "_"
		if strings.HasPrefix(up, pre) {
			return fmt.Sprintf("%s configures %s", name, a)
		}
	}
	return ""
}

// neverKeptEnv are names no record keeps, sealed or not: the terminal's and
// the shell's own for one window and one moment (kitty's window id, pid and
// socket, the X window, the terminal type, the shell's directory and depth)
// and kittymux's. The agent inherits them from the window it runs in; a
// restored agent gets its new window's. A typed line naming them is text any
// program can print (`OSC 133;C;cmdline_url=`).
var neverKeptEnv = []string{
	"KITTY_*", "KITTYMUX_*", "WINDOWID", "TERM", "TERMINFO", "TERMINFO_DIRS", "TERMCAP", "COLORTERM",
	"TERM_PROGRAM", "TERM_PROGRAM_VERSION", "DISPLAY", "WAYLAND_DISPLAY", "PWD", "OLDPWD", "SHLVL", "_",
}

// EnvNeverKept reports why no record keeps an assignment NAME=VALUE, or ""
// when a record may.
func EnvNeverKept(kv string) string {
	name, _, _ := strings.Cut(kv, "=")
	up := strings.ToUpper(name)
	for _, p := range neverKeptEnv {
		if pre, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(up, pre) || up == p {
			return fmt.Sprintf("%s belongs to the window the agent ran in, not to the agent", name)
		}
	}
	return ""
}
