package setup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// runRemote is `kittymux setup --remote`, run on a host the user reaches
// from kitty over ssh: the agents' hooks (which there record each session
// in the host's own journal and tell the window which conversation runs)
// and the state directory the journal lives in. Nothing of kitty: the
// host's kitty, if it has one, is set up by a plain `kittymux setup`.
func runRemote(o *Options) error {
	out := o.IO.Out
	if o.Undo {
		return &factory.FlagError{Err: errors.New("--remote takes no --undo: `kittymux integration uninstall` removes the hooks")}
	}
	if o.DryRun {
		fmt.Fprintf(out, "kittymux setup --remote would make these changes (dry run: nothing is written):\n")
		fmt.Fprintf(out, "state      would make %s (the journal: %s)\n", o.Paths.StateDir, o.Paths.Journal())
	} else {
		if err := statefile.EnsureState(o.Paths); err != nil {
			return err
		}
		fmt.Fprintf(out, "kittymux setup --remote:\nstate      %s (the journal: %s)\n", o.Paths.StateDir, o.Paths.Journal())
	}
	if err := hooks(o); err != nil {
		return err
	}
	fmt.Fprintln(out, resumeNote(o))
	return nil
}

// resumeNote says whether a restore from another machine will find
// kittymux-resume here: the command kittymux sends over ssh looks on the
// PATH ssh gives a command, plus ~/.local/bin and ~/go/bin.
func resumeNote(o *Options) string {
	here := filepath.Join(filepath.Dir(o.Executable), "kittymux-resume")
	if _, err := os.Stat(here); err != nil {
		return "resume     kittymux-resume is not beside " + o.Executable + ": install both (go install ./cmd/...)"
	}
	home := o.Getenv("HOME")
	dirs := strings.Split(o.Getenv("PATH"), ":")
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".local", "bin"), filepath.Join(home, "go", "bin"))
	}
	for _, d := range dirs {
		if d != "" && filepath.Join(d, "kittymux-resume") == here {
			return "resume     " + here + ": an agent that ran here comes back in its conversation when the window that reached it over ssh is restored"
		}
	}
	return "resume     " + here + " is not on PATH, ~/.local/bin or ~/go/bin, where a command run over ssh looks: link it into ~/.local/bin"
}
