package root

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
)

// strict makes bad usage anywhere in the tree under cmd an error with exit
// 2: a wrong number of arguments, and an unknown command under a command
// that only groups others (cobra would print the group's help and exit 0).
// The group itself, alone, still prints its help.
func strict(cmd *cobra.Command) {
	if !cmd.HasParent() {
		cmd.SetUsageFunc(usage)
	}
	for _, c := range cmd.Commands() {
		strict(c)
	}
	if c := cmd; c.HasSubCommands() && c.Run == nil && c.RunE == nil {
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return c.Help()
			}
			return unknownCommand(c, args[0])
		}
	}
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				if !c.HasSubCommands() && strings.HasPrefix(err.Error(), "unknown command") {
					// cobra.NoArgs says "unknown command" of an argument.
					err = fmt.Errorf("%q takes no arguments, got %q", c.CommandPath(), a[0])
				}
				return &factory.FlagError{Err: fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
			}
			return nil
		}
	}
	if cmd.Name() == "help" && cmd.HasParent() && !cmd.Parent().HasParent() {
		cmd.Run = nil
		cmd.RunE = func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err != nil {
				return &factory.FlagError{Err: err}
			}
			if len(rest) > 0 {
				return unknownCommand(target, rest[0])
			}
			return target.Help()
		}
	}
	addCompletionExamples(cmd)
}

// usage is cobra's default usage, written out rather than run as its
// template (text/template parsing and running it cost more than the rest of
// a `--help`), with one change: a group runs only to report bad usage, so
// its usage is its commands, not its own use line.
func usage(c *cobra.Command) error {
	w := c.OutOrStderr()
	c.LocalFlags() // merges the inherited flags in, as cobra does first
	var b strings.Builder
	b.WriteString("Usage:")
	if c.Runnable() && !c.HasAvailableSubCommands() {
		b.WriteString("\n  " + c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n  " + c.CommandPath() + " [command]")
	}
	if len(c.Aliases) > 0 {
		b.WriteString("\n\nAliases:\n  " + c.NameAndAliases())
	}
	if c.HasExample() {
		b.WriteString("\n\nExamples:\n" + c.Example)
	}
	if c.HasAvailableSubCommands() {
		// The commands listed that in(s) holds, under title.
		list := func(title string, in func(s *cobra.Command) bool) {
			b.WriteString("\n\n" + title)
			for _, s := range c.Commands() {
				if (s.IsAvailableCommand() || s.Name() == "help") && in(s) {
					b.WriteString("\n  " + rpad(s.Name(), s.NamePadding()) + " " + s.Short)
				}
			}
		}
		if len(c.Groups()) == 0 {
			list("Available Commands:", func(*cobra.Command) bool { return true })
		}
		for _, g := range c.Groups() {
			list(g.Title, func(s *cobra.Command) bool { return s.GroupID == g.ID })
		}
		if len(c.Groups()) > 0 && !c.AllChildCommandsHaveGroup() {
			list("Additional Commands:", func(s *cobra.Command) bool { return s.GroupID == "" })
		}
	}
	if c.HasAvailableLocalFlags() {
		b.WriteString("\n\nFlags:\n" + strings.TrimRightFunc(c.LocalFlags().FlagUsages(), unicode.IsSpace))
	}
	if c.HasAvailableInheritedFlags() {
		b.WriteString("\n\nGlobal Flags:\n" + strings.TrimRightFunc(c.InheritedFlags().FlagUsages(), unicode.IsSpace))
	}
	if c.HasHelpSubCommands() {
		b.WriteString("\n\nAdditional help topics:")
		for _, s := range c.Commands() {
			if s.IsAdditionalHelpTopicCommand() {
				b.WriteString("\n  " + rpad(s.CommandPath(), s.CommandPathPadding()) + " " + s.Short)
			}
		}
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\nUse \"" + c.CommandPath() + " [command] --help\" for more information about a command.")
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// rpad pads s with spaces to n runes, as cobra's template does.
func rpad(s string, n int) string {
	if k := n - utf8.RuneCountInString(s); k > 0 {
		return s + strings.Repeat(" ", k)
	}
	return s
}

// unknownCommand is the error for `kittymux GROUP NAME` where GROUP has no
// command NAME, with cobra's suggestions.
func unknownCommand(c *cobra.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q for %q", name, c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2
	}
	if s := c.SuggestionsFor(name); len(s) > 0 {
		msg += " (did you mean " + strings.Join(s, " or ") + "?)"
	}
	return &factory.FlagError{Err: fmt.Errorf("%s; see '%s --help'", msg, c.CommandPath())}
}

// addCompletionExamples gives cobra's own commands (help, completion and
// its shells) the Examples section every command has.
func addCompletionExamples(c *cobra.Command) {
	if c.Example != "" {
		return
	}
	switch c.CommandPath() {
	case "kittymux help":
		c.Example = "  kittymux help sessions restore"
	case "kittymux completion":
		c.Example = "  kittymux completion bash > ~/.local/share/bash-completion/completions/kittymux\n" +
			"  kittymux completion fish > ~/.config/fish/completions/kittymux.fish"
	case "kittymux completion bash":
		c.Example = "  source <(kittymux completion bash)\n" +
			"  kittymux completion bash > ~/.local/share/bash-completion/completions/kittymux"
	case "kittymux completion zsh":
		c.Example = "  kittymux completion zsh > \"${fpath[1]}/_kittymux\""
	case "kittymux completion fish":
		c.Example = "  kittymux completion fish > ~/.config/fish/completions/kittymux.fish"
	case "kittymux completion powershell":
		c.Example = "  kittymux completion powershell | Out-String | Invoke-Expression"
	}
}
