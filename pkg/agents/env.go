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
	// Model providers' variables, which many agents read (keys, servers,
	// regions). Each agent's own are its definition's config_env.
	"ANTHROPIC_*", "OPENAI_*", "GOOGLE_*", "VERTEX_*", "CLOUD_ML_*", "AWS_*", "AZURE_*", "OPENROUTER_*", "OLLAMA_*",
	"LITELLM_*",
	// kittymux's own.
	"KITTYMUX_*", "KITTY_*",
}

// AgentEnv is a variable, or a prefix of variables (a trailing "*"), that
// configures an agent: a definition's config_env, or its NAME_*.
type AgentEnv struct{ Pattern, Agent string }

// ConfigEnv lists what configures the defined agents: each one's
// config_env and its NAME_*. EnvNeedsSeal adds the shipped definitions'.
func (s *Set) ConfigEnv() []AgentEnv { return s.configEnv() }

func (s *Set) makeConfigEnv() []AgentEnv {
	var out []AgentEnv
	for _, n := range s.names {
		for _, p := range s.agents[n].def.ConfigEnv {
			out = append(out, AgentEnv{p, n})
		}
		out = append(out, AgentEnv{strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(n)) + "_*", n})
	}
	return out
}

// EnvNeedsSeal reports why an assignment NAME=VALUE may come only from a
// sealed record, or "" when any record may set it. agentEnv is what
// configures the defined agents (Set.ConfigEnv); every shipped definition's
// config_env counts as well, whatever the user's file replaced.
func EnvNeedsSeal(kv string, agentEnv []AgentEnv) string {
	name, _, _ := strings.Cut(kv, "=")
	up := strings.ToUpper(name)
	for _, p := range sealOnlyEnv {
		if envMatch(up, p) {
			return fmt.Sprintf("%s loads code or changes the agent's configuration", name)
		}
	}
	for _, e := range shipped {
		for _, p := range e.Def.ConfigEnv {
			if envMatch(up, strings.ToUpper(p)) {
				return fmt.Sprintf("%s configures %s", name, e.Name)
			}
		}
	}
	for _, e := range agentEnv {
		if envMatch(up, strings.ToUpper(e.Pattern)) {
			return fmt.Sprintf("%s configures %s", name, e.Agent)
		}
	}
	return ""
}

// envMatch: name (in capitals) is pattern, or begins with pattern's
// prefix when it ends in "*".
func envMatch(name, pattern string) bool {
	if pre, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(name, pre)
	}
	return name == pattern
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
		if envMatch(up, p) {
			return fmt.Sprintf("%s belongs to the window the agent ran in, not to the agent", name)
		}
	}
	return ""
}
