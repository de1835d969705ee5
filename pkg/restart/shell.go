package restart

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/kittymux/kittymux/pkg/kitty"
)

// shellLangs are the interactive shells kittymux types a command into, with
// the quoting each reads exactly as written. fish reads POSIX single quotes
// too, except a backslash or a quote inside them: typeLine refuses those.
var shellLangs = map[string]syntax.LangVariant{
	"bash": syntax.LangBash, "zsh": syntax.LangBash,
	"sh": syntax.LangPOSIX, "dash": syntax.LangPOSIX, "ash": syntax.LangPOSIX, "ksh": syntax.LangPOSIX,
	"mksh": syntax.LangPOSIX, "fish": syntax.LangPOSIX,
}

// shellOf names the interactive shell that window w runs as its own
// process ("bash"), or says why it is none. kitty's ls gives the command
// the window was started with: a shell with no command (-c) and no script.
func shellOf(w kitty.Window) (string, error) {
	if len(w.Cmdline) == 0 {
		return "", fmt.Errorf("kitty does not say what the window runs")
	}
	name := strings.TrimPrefix(filepath.Base(w.Cmdline[0]), "-")
	_, known := shellLangs[name]
	script := slices.ContainsFunc(w.Cmdline[1:], func(a string) bool {
		return a == "-c" || !strings.HasPrefix(a, "-")
	})
	if !known || script {
		return "", fmt.Errorf("the agent runs under %s, not an interactive shell kittymux can type into (%s)",
			kitty.Printable(strings.Join(w.Cmdline, " ")), strings.Join(shellNames(), ", "))
	}
	return name, nil
}

func shellNames() []string {
	var out []string
	for k := range shellLangs {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// typeLine is argv as a line for shell to run, in dir first when dir is
// not "": every word quoted for that shell, so the shell runs exactly argv
// and nothing in a word can end it or start another command.
func typeLine(shell, dir string, argv []string) (string, error) {
	lang, ok := shellLangs[shell]
	if !ok {
		return "", fmt.Errorf("kittymux does not type into %s", shell)
	}
	quote := func(words []string) (string, error) {
		parts := make([]string, len(words))
		for i, w := range words {
			if shell == "fish" && strings.ContainsAny(w, `\'`) {
				return "", fmt.Errorf("fish reads a backslash or quote inside quotes its own way: %q cannot be typed safely", w)
			}
			q, err := syntax.Quote(w, lang)
			if err != nil {
				return "", fmt.Errorf("quote %q for %s: %w", w, shell, err)
			}
			parts[i] = q
		}
		return strings.Join(parts, " "), nil
	}
	line, err := quote(argv)
	if err != nil || dir == "" {
		return line, err
	}
	cd, err := quote([]string{"cd", "--", dir})
	if err != nil {
		return "", err
	}
	return cd + " && " + line, nil
}
