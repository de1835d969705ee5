package store

import (
	"path/filepath"

	"github.com/kittymux/kittymux/pkg/restorerec"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// Count reads a session file and says how many windows it holds and how
// many of them are agent windows kittymux will ask to resume (their command
// is the restore prompt).
func Count(data []byte) (windows, agents int, err error) {
	f, err := sessionfile.Parse(data)
	if err != nil {
		return 0, 0, err
	}
	for _, ref := range f.Windows() {
		windows++
		l := ref.Line.Launch
		if argv := l.Command(); len(argv) > 0 && filepath.Base(argv[0]) == restorerec.Program {
			agents++
		}
	}
	return windows, agents, nil
}
