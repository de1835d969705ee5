package root

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
)

// strict makes bad usage anywhere in the tree under cmd an error with exit
// 2: a wrong number of arguments, and an unknown command under a command
// that only groups others (cobra would print the group's help and exit 0).
// The group itself, alone, still prints its help.
func strict(cmd *cobra.Command) {
	if !cmd.HasParent() {
		// A group runs only to report bad usage: its usage is its commands.
		cmd.SetUsageTemplate(strings.Replace(cmd.UsageTemplate(), "Usage:{{if .Runnable}}",
			"Usage:{{if and .Runnable (not .HasAvailableSubCommands)}}", 1))
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
