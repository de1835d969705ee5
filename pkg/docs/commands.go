package docs

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// commandRE finds kittymux run as a command in a line of code: the word
// alone (also at the end of a path or quoted), followed by a blank.
// shellComment is a comment at the end of a line of shell.
var shellComment = regexp.MustCompile(`(^|\s)#(\s.*)?$`)

var commandRE = regexp.MustCompile(`(?:^|[\s"'/(])kittymux"?\s+(.*)`)

// Commands returns the kittymux command lines a piece of code shows, each
// the words after "kittymux", up to two blanks in a row (where a
// description follows), a comment or a shell operator.
func Commands(code string) [][]string {
	var out [][]string
	for _, line := range strings.Split(code, "\n") {
		line = shellComment.ReplaceAllString(line, "")
		// What follows two blanks describes the command (a table of commands).
		line, _, _ = strings.Cut(strings.TrimSpace(line), "  ")
		for rest := line; ; {
			m := commandRE.FindStringSubmatchIndex(rest)
			if m == nil {
				break
			}
			args := rest[m[2]:m[3]]
			rest = args
			out = append(out, words(args))
		}
	}
	return out
}

// words splits a command at blanks and stops at a comment or a shell
// operator other than "|", which CheckCommand reads.
func words(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		if w == "#" || w == "&&" || w == "||" || w == ";" || strings.HasPrefix(w, ">") || strings.HasPrefix(w, "2>") ||
			w == "--" || strings.HasPrefix(w, "$(") {
			break
		}
		out = append(out, strings.TrimRight(w, ");,."))
	}
	return out
}

// CheckCommand walks root's tree along args and returns an error for a
// subcommand or a flag it does not have. Upper-case words (NAME, A) and
// words past a command without subcommands are its arguments; a command
// with subcommands takes none of its own (a group). "a|b" are
// alternatives, each checked; a lone "|" followed by a sibling of the
// command reached is an alternative too (`scanner run | poll --once`), any
// other "|" a pipe that ends the command.
func CheckCommand(root *cobra.Command, args []string) error {
	cmd, descend := root, true
	for i := 0; i < len(args); i++ {
		w := strings.Trim(args[i], "[]")
		switch {
		case w == "" || w == "..." || w == "…":
		case w == "|":
			if i+1 < len(args) && cmd.HasParent() && sub(cmd.Parent(), args[i+1]) != nil {
				cmd, descend = cmd.Parent(), true
				continue
			}
			return nil
		case strings.HasPrefix(w, "-") && cmd.DisableFlagParsing:
			// It reads its own arguments (kittymux hook).
		case strings.HasPrefix(w, "-"):
			f, err := flag(cmd, w)
			if err != nil {
				return err
			}
			if f.NoOptDefVal == "" && !strings.Contains(w, "=") {
				i++ // its value
			}
		case !descend || !cmd.HasSubCommands() || strings.ToLower(w) != w || strings.ContainsAny(w, "/.=:{<"):
			descend = false
		case strings.Contains(w, "|"):
			for _, alt := range strings.Split(w, "|") {
				if sub(cmd, alt) == nil {
					return fmt.Errorf("%q has no subcommand %q", cmd.CommandPath(), alt)
				}
			}
			descend = false
		default:
			if s := sub(cmd, w); s != nil {
				cmd = s
				continue
			}
			return fmt.Errorf("%q has no subcommand %q", cmd.CommandPath(), w)
		}
	}
	return nil
}

// sub returns cmd's subcommand called name (or by an alias), or nil.
func sub(cmd *cobra.Command, name string) *cobra.Command {
	for _, c := range cmd.Commands() {
		if c.Name() == name || c.HasAlias(name) {
			return c
		}
	}
	return nil
}

// flag looks a flag up on cmd and the persistent flags of its parents.
func flag(cmd *cobra.Command, w string) (*pflag.Flag, error) {
	cmd.InitDefaultHelpFlag()
	if !cmd.HasParent() {
		cmd.InitDefaultVersionFlag()
	}
	name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
	name = strings.TrimRight(name, ":")
	for c := cmd; c != nil; c = c.Parent() {
		fs := []*pflag.FlagSet{c.PersistentFlags()}
		if c == cmd {
			fs = append(fs, c.Flags())
		}
		for _, set := range fs {
			if strings.HasPrefix(w, "--") {
				if f := set.Lookup(name); f != nil {
					return f, nil
				}
			} else if len(name) == 1 {
				if f := set.ShorthandLookup(name); f != nil {
					return f, nil
				}
			}
		}
	}
	return nil, fmt.Errorf("%q has no flag %s", cmd.CommandPath(), w)
}
