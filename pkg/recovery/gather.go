package recovery

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/history"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/probe"
)

// Sources are where BuildFrom reads what Build needs: the journals, the
// agent definitions and their probes, the restore prompt, the kitties
// running now.
type Sources struct {
	Paths      paths.Paths
	Getenv     func(string) string
	Agents     func() (*agents.Set, error)
	Probes     func(ctx context.Context, set *agents.Set, names []string) probe.Probes
	ResumeBin  func() (string, error)
	Discover   func(context.Context) ([]kitty.Instance, error)
	AskTimeout time.Duration
}

// BuildFrom builds the recovery opt asks for (its Clock, Since and Closed)
// from the journal, the agent definitions and the kitties running now. key
// gives the key that seals the records (nil: unsealed); lost also leaves
// out the conversations the agents' own files no longer hold.
func BuildFrom(ctx context.Context, src Sources, opt Options, lost bool, key func() ([]byte, error)) (*Plan, error) {
	jf, err := journal.New(src.Paths.Journal(), false).Read()
	if err != nil {
		return nil, err
	}
	if opt.Remote, err = journal.New(src.Paths.RemoteJournal(), false).Read(); err != nil {
		return nil, err
	}
	opt.Home = src.Getenv("HOME")
	set, err := src.Agents()
	if err != nil {
		return nil, err
	}
	bin, err := src.ResumeBin()
	if err != nil {
		return nil, err
	}
	insts, err := src.Discover(ctx)
	if err != nil {
		return nil, err
	}
	// Every kitty found says which conversations run there now. A kitty
	// that does not answer is gone: its conversations come back.
	opt.Live = Live(set, kitty.LSAll(ctx, insts, src.AskTimeout), live.Records{Getenv: src.Getenv, StateDir: src.Paths.StateDir})
	if opt.Key, err = key(); err != nil {
		return nil, err
	}
	opt.Agents, opt.Journal, opt.ResumeBin, opt.Stat = set, jf, bin, statDir
	opt.Check = func(names []string) probe.Probes { return src.Probes(ctx, set, names) }
	if lost {
		opt.Lost = history.Lost(set, src.Getenv)
	}
	return Build(opt)
}

func statDir(dir string) error {
	fi, err := os.Stat(dir)
	if err == nil && !fi.IsDir() {
		return errors.New("not a directory")
	}
	return err
}
