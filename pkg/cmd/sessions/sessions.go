// Package sessions implements `kittymux sessions ...`: the parent command;
// each subcommand is a package below it.
package sessions

import (
	"github.com/spf13/cobra"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/check"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/history"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/list"
	newCmd "github.com/kittymux/kittymux/pkg/cmd/sessions/new"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/offer"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/publish"
	recoverCmd "github.com/kittymux/kittymux/pkg/cmd/sessions/recover"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/restore"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/save"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/saves"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/templates"
)

// NewCmdSessions returns `kittymux sessions`.
func NewCmdSessions(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "Save, restore, list and check agent sessions",
		Example: `  kittymux sessions save work
  kittymux sessions restore last
  kittymux sessions saves`,
	}
	cmd.AddCommand(save.NewCmdSave(f, nil), publish.NewCmdPublish(f, nil), restore.NewCmdRestore(f, nil), list.NewCmdList(f, nil),
		check.NewCmdCheck(f, nil), saves.NewCmdSaves(f, nil), history.NewCmdHistory(f, nil), recoverCmd.NewCmdRecover(f, nil),
		templates.NewCmdTemplates(f, nil), newCmd.NewCmdNew(f, nil), offer.NewCmdOffer(f, nil), saves.NewCmdRm(f), saves.NewCmdRename(f))
	return cmd
}
