package doctor

import (
	"fmt"

	"github.com/kittymux/kittymux/pkg/screenhist"
)

// HistoryReport is screen history: on or off, and what the saves keep of it.
type HistoryReport struct {
	On bool `json:"on"`
	// Bounds are how much a save keeps (config.json's
	// screen_history_lines, _window_kb, _save_mb).
	Bounds screenhist.Bounds `json:"bounds"`
	Files  int               `json:"files"`
	Bytes  int64             `json:"bytes"`
	Note   string            `json:"note"`
}

func checkHistory(o *Options) HistoryReport {
	s, err := screenhist.Load(o.Paths, o.Getenv)
	r := HistoryReport{On: s.On, Bounds: s.Bounds}
	files, n, uerr := screenhist.Usage(o.Paths)
	r.Files, r.Bytes = files, n
	state := "off (" + s.Why + `; "screen_history": true in config.json or ` + screenhist.Env + "=1 turns it on)"
	if s.On {
		state = "on (" + s.Why + "): saves keep what each plain window shows, " + s.Bounds.String()
	}
	r.Note = fmt.Sprintf("%s; %d file(s), %s kept beside the saves", state, files, size(n))
	if err != nil {
		r.Note += "; PROBLEM: " + err.Error()
	}
	if uerr != nil {
		r.Note += "; " + uerr.Error()
	}
	return r
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
