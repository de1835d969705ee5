package screenhist

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// ShowFlag is kittymux-resume's mode that prints a kept history file.
const ShowFlag = published.ShowHistoryFlag

// fileExt ends each kept window's file.
const fileExt = ".txt"

// Plain returns the ids of the windows of a rewritten save that kitty will
// restore as a shell at its prompt: a launch line from kitty's save with no
// command and nothing for the shell to run at startup (or only an earlier
// restore's history, which a save can catch being printed). Agent windows
// always have one: the restore prompt.
func Plain(data []byte, resumeBin string) []int {
	f, err := sessionfile.Parse(data)
	if err != nil {
		return nil
	}
	var ids []int
	for _, ref := range f.Windows() {
		if l := ref.Line.Launch; l.Unserialize != nil && len(l.Argv) == 0 && !hasCommand(l, resumeBin) {
			ids = append(ids, l.Unserialize.ID())
		}
	}
	return ids
}

func hasCommand(l *sessionfile.Launch, resumeBin string) bool {
	c := l.Unserialize.CmdAtShellStartup
	if !c.Set {
		return false
	}
	return !(c.IsList && len(c.List) == 3 && c.List[0] == resumeBin && c.List[1] == ShowFlag)
}

// Attach writes each window's text (by window id, Filter'ed and Bound'ed)
// as a file of the save name, 0600 and atomically, and points the window's
// launch line at it: the restored shell runs `resumeBin --show-history
// FILE` at startup, then shows its prompt. It returns the save's new data
// and the stamp its files carry (Prune keeps them). Nothing is written for
// a window the save does not hold as a plain shell.
func Attach(p paths.Paths, name, resumeBin string, data []byte, texts map[int][]byte, now time.Time) ([]byte, string, error) {
	stamp := strconv.FormatInt(now.UnixNano(), 36)
	if len(texts) == 0 {
		return data, stamp, nil
	}
	f, err := sessionfile.Parse(data)
	if err != nil {
		return nil, "", err
	}
	plain := map[int]bool{}
	for _, id := range Plain(data, resumeBin) {
		plain[id] = true
	}
	var d *statefile.Dir
	for _, ref := range f.Windows() {
		l := ref.Line.Launch
		if l.Unserialize == nil || !plain[l.Unserialize.ID()] || len(texts[l.Unserialize.ID()]) == 0 {
			continue
		}
		if d == nil {
			if d, err = makeDir(p, name); err != nil {
				return nil, "", err
			}
			defer d.Close()
		}
		file := stamp + "-" + strconv.Itoa(l.Unserialize.ID()) + fileExt
		if err := d.WriteFile(file, texts[l.Unserialize.ID()]); err != nil {
			return nil, "", err
		}
		if err := l.SetCmdAtShellStartupList([]string{resumeBin, ShowFlag, filepath.Join(d.Path(), file)}); err != nil {
			return nil, "", err
		}
	}
	out, err := f.Encode()
	return out, stamp, err
}

func makeDir(p paths.Paths, name string) (*statefile.Dir, error) {
	top, err := statefile.Make(p.StateDir)
	if err != nil {
		return nil, err
	}
	defer top.Close()
	return top.MakeSub(filepath.Join(paths.SessionsName, filepath.Base(published.HistoryDir(p, name))))
}

// Prune removes the files of the save name that its published file, whose
// files carry stamp, no longer names; an empty directory goes too.
func Prune(p paths.Paths, name, stamp string) error {
	return published.RemoveHistory(p, name, func(file string) bool { return !strings.HasPrefix(file, stamp+"-") })
}

// Usage is how many files and bytes the kept histories of every save hold.
func Usage(p paths.Paths) (files int, bytes int64, err error) {
	dirs, err := filepath.Glob(filepath.Join(p.SessionsDir(), "*"+published.HistorySuffix))
	if err != nil {
		return 0, 0, err
	}
	for _, dir := range dirs {
		ents, err := filepath.Glob(filepath.Join(dir, "*"+fileExt))
		if err != nil {
			return files, bytes, fmt.Errorf("list %s: %w", dir, err)
		}
		for _, e := range ents {
			if fi, err := os.Lstat(e); err == nil && fi.Mode().IsRegular() {
				files++
				bytes += fi.Size()
			}
		}
	}
	return files, bytes, nil
}
