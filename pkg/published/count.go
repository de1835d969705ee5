package published

import (
	"path/filepath"

	"github.com/kittymux/kittymux/pkg/resumerecord"
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
		if argv := l.Command(); len(argv) > 0 && filepath.Base(argv[0]) == resumerecord.Program && !showsHistory(argv) {
			agents++
		}
	}
	return windows, agents, nil
}

// ShowHistoryFlag is the restore prompt's mode that prints a plain
// window's kept screen history before its shell's prompt.
const ShowHistoryFlag = "--show-history"

func showsHistory(argv []string) bool {
	return len(argv) == 3 && filepath.Base(argv[0]) == resumerecord.Program && argv[1] == ShowHistoryFlag
}

// HistoryWindow is a window of a save that prints a kept screen history
// when restored.
type HistoryWindow struct {
	WindowID int    `json:"window_id"` // kitty's, when it saved
	Cwd      string `json:"cwd"`
	File     string `json:"file"`
}

// HistoryWindows reads a session file and says which of its windows print
// a kept screen history when restored.
func HistoryWindows(data []byte) []HistoryWindow {
	f, err := sessionfile.Parse(data)
	if err != nil {
		return nil
	}
	var out []HistoryWindow
	for _, ref := range f.Windows() {
		if l := ref.Line.Launch; l.Unserialize != nil && showsHistory(l.Command()) {
			out = append(out, HistoryWindow{WindowID: l.Unserialize.ID(), Cwd: ref.Cwd, File: l.Command()[2]})
		}
	}
	return out
}
