package saves

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/shared"
	"github.com/kittymux/kittymux/pkg/published"
)

// NewCmdRm returns `sessions rm NAME`.
func NewCmdRm(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rm NAME",
		Short: "Remove a saved session (never one a running restore or an open offer uses)",
		Long: `Remove the saved session NAME (a name ` + "`sessions saves`" + ` lists). A save that a running
` + "`sessions restore`" + ` or the offer shown in a kitty uses is refused, and so is "last": name the save.

Exit codes: 0 removed, 1 no such session or in use, 2 bad usage.`,
		Example: `  kittymux sessions rm work
  kittymux sessions rm autosave-15939-20261202T015118.639Z`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: shared.CompleteSessionNames(f.Paths),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := published.Delete(f.Paths, args[0]); err != nil {
				return err
			}
			fmt.Fprintf(f.IO.ErrOut, "removed %s\n", args[0])
			return nil
		},
	}
	return cmd
}

// NewCmdRename returns `sessions rename OLD NEW`.
func NewCmdRename(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rename OLD NEW",
		Short: "Rename a saved session (never one in use, never over another save)",
		Long: `Give the saved session OLD the name NEW. A save that a running ` + "`sessions restore`" + ` or an
open offer uses is refused, and so is a NEW that is saved already (remove it first). NEW may not
start with "` + published.AutosavePrefix + `": those names are the scanner's, which keeps only its newest.

Exit codes: 0 renamed, 1 no such session, in use or NEW taken, 2 bad usage.`,
		Example: `  kittymux sessions rename autosave-15939-20261202T015118.639Z before-upgrade
  kittymux sessions rename work work-old`,
		Args:              cobra.ExactArgs(2),
		ValidArgsFunction: shared.CompleteSessionNames(f.Paths),
		RunE: func(_ *cobra.Command, args []string) error {
			if strings.HasPrefix(args[1], published.AutosavePrefix) {
				return &factory.FlagError{Err: fmt.Errorf("NEW %q: names starting with %q are the scanner's autosaves", args[1], published.AutosavePrefix)}
			}
			if err := published.CheckName(args[1]); err != nil {
				return &factory.FlagError{Err: err}
			}
			if err := published.Rename(f.Paths, args[0], args[1]); err != nil {
				return err
			}
			fmt.Fprintf(f.IO.ErrOut, "renamed %s to %s\n", args[0], args[1])
			return nil
		},
	}
	return cmd
}
