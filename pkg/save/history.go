package save

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/screenhist"
)

// textReader is what reading a window's screen history asks of kitty
// (kitty.Client).
type textReader interface {
	GetANSIText(ctx context.Context, match string) (string, error)
}

// readTimeout bounds reading one window's text: a window with a long
// scrollback must not stall the save.
const readTimeout = 10 * time.Second

// readHistory reads what each plain window of the save shows, screen and
// scrollback, filtered and bounded (per window and for the whole save). A
// window whose text cannot be read keeps none; the save goes on.
func readHistory(ctx context.Context, k Kitty, res *rewrite.Result, resumeBin string) map[int][]byte {
	tr, ok := k.(textReader)
	if !ok {
		return nil
	}
	texts := map[int][]byte{}
	budget := screenhist.MaxSaveBytes
	for _, id := range screenhist.Plain(res.Data, resumeBin) {
		if budget <= 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("window %d: screen history not kept: the save holds %d MiB already", id, screenhist.MaxSaveBytes>>20))
			continue
		}
		c, cancel := context.WithTimeout(ctx, readTimeout)
		s, err := tr.GetANSIText(c, "id:"+strconv.Itoa(id))
		cancel()
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("window %d: screen history not kept: %s", id, screenhist.Filter([]byte(err.Error()))))
			continue
		}
		t := screenhist.Bound(screenhist.Filter([]byte(s)), screenhist.MaxLines, min(screenhist.MaxWindowBytes, budget))
		if len(t) > 0 {
			texts[id] = t
			budget -= len(t)
		}
	}
	return texts
}

// withHistory keeps the screen history of the save name's plain windows
// when o asks for it: their files are written and the save points at them.
// It returns the data to publish and the stamp of the files it wrote ("":
// none). A failure keeps the save without history.
func withHistory(ctx context.Context, o Options, res *rewrite.Result, now time.Time) ([]byte, string) {
	if !o.ScreenHistory {
		return res.Data, ""
	}
	texts := readHistory(ctx, o.Kitty, res, o.ResumeBin)
	data, stamp, err := screenhist.Attach(o.Paths, o.Name, o.ResumeBin, res.Data, texts, now)
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("screen history not kept: %v", err))
		return res.Data, ""
	}
	res.History = make([]int, 0, len(texts))
	for _, id := range screenhist.Plain(res.Data, o.ResumeBin) {
		if len(texts[id]) > 0 {
			res.History = append(res.History, id)
		}
	}
	return data, stamp
}
