package save

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/screenhist"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// TextReader reads a window's screen and scrollback with its colours, as
// kitty's get-text --ansi --extent all gives them (kitty.Client; QuitTexts).
type TextReader interface {
	GetANSIText(ctx context.Context, match string) (string, error)
}

// readTimeout bounds reading one window's text: a window with a long
// scrollback must not stall the save.
const readTimeout = 10 * time.Second

// ReadHistory reads what each plain window of the save shows, screen and
// scrollback, filtered and bounded by b (per window and for the whole
// save). A window whose text cannot be read keeps none; the save goes on.
func ReadHistory(ctx context.Context, tr TextReader, res *rewrite.Result, resumeBin string, b screenhist.Bounds) map[int][]byte {
	texts := map[int][]byte{}
	budget := b.SaveBytes
	for _, id := range screenhist.Plain(res.Data, resumeBin) {
		if budget <= 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("window %d: screen history not kept: the save holds %d MiB already", id, b.SaveBytes>>20))
			continue
		}
		c, cancel := context.WithTimeout(ctx, readTimeout)
		s, err := tr.GetANSIText(c, "id:"+strconv.Itoa(id))
		cancel()
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("window %d: screen history not kept: %s", id, screenhist.Filter([]byte(err.Error()))))
			continue
		}
		t := screenhist.Bound(screenhist.Filter([]byte(s)), b.Lines, min(b.WindowBytes, budget))
		if len(t) > 0 {
			texts[id] = t
			budget -= len(t)
		}
	}
	return texts
}

// QuitTexts is the directory kitty's quit watcher writes when screen
// history is on: what each window shows, as get-text --ansi --extent all
// gives it (the watcher calls what that command calls, in kitty's own
// process: the socket is closing), its last bytes only, as ID.txt. It
// holds every window's, agents' too: ReadHistory keeps the plain windows'.
// Its name is the raw save's, .kitty-session replaced by QuitTextsExt.
type QuitTexts struct {
	Dir string
	Max int64 // what one file may hold
}

// QuitTextsExt ends the name of a QuitTexts directory.
const QuitTextsExt = ".text"

// GetANSIText reads the file of the window "id:N".
func (q QuitTexts) GetANSIText(_ context.Context, match string) (string, error) {
	id, err := strconv.Atoi(strings.TrimPrefix(match, "id:"))
	if err != nil {
		return "", err
	}
	b, err := userfile.Read(filepath.Join(q.Dir, strconv.Itoa(id)+".txt"), q.Max)
	return string(b), err
}

// Remove removes the directory with its files.
func (q QuitTexts) Remove() error {
	ents, _ := os.ReadDir(q.Dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".txt") {
			os.Remove(filepath.Join(q.Dir, e.Name()))
		}
	}
	return os.Remove(q.Dir)
}

// Publish publishes res as the session name with the screen history Take
// read (res.HistoryTexts): each plain window's text is written as a file
// of the save and the save points at it; the files an earlier save of the
// name kept go once it is published. A failure to keep the history keeps
// the save without it. res.Data and res.History become what was published.
func Publish(p paths.Paths, name, resumeBin string, res *rewrite.Result, now time.Time) (string, error) {
	if res == nil {
		return "", errors.New("refusing to publish an empty session")
	}
	data, stamp := res.Data, ""
	if len(res.HistoryTexts) > 0 {
		d, st, err := screenhist.Attach(p, name, resumeBin, res.Data, res.HistoryTexts, now)
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("screen history not kept: %v", err))
		} else {
			data, stamp = d, st
		}
	}
	path, err := published.Publish(p, name, data)
	if err != nil {
		return "", err
	}
	if stamp != "" {
		res.History = res.History[:0]
		for _, id := range screenhist.Plain(res.Data, resumeBin) {
			if len(res.HistoryTexts[id]) > 0 {
				res.History = append(res.History, id)
			}
		}
	}
	res.Data = data
	if err := screenhist.Prune(p, name, stamp); err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("removing older screen history: %v", err))
	}
	return path, nil
}
