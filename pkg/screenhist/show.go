package screenhist

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// Footer is the line printed after a window's history: when it was kept.
func Footer(kept, now time.Time) string {
	at := kept.Format("15:04")
	y1, m1, d1 := kept.Date()
	if y2, m2, d2 := now.Date(); y1 != y2 || m1 != m2 || d1 != d2 {
		at = kept.Format("Jan 2 15:04")
	}
	return "— screen history from " + at + ", restored by kittymux —"
}

// Show prints the kept history file path to w, filtered again (whatever
// wrote the file), then Footer. Only a file kittymux keeps is read: a
// regular file named *.txt in a save's *.history directory.
func Show(w io.Writer, path string, now time.Time) error {
	if !filepath.IsAbs(path) || filepath.Ext(path) != fileExt || !strings.HasSuffix(filepath.Dir(path), published.HistorySuffix) {
		return fmt.Errorf("%s is not a screen history file kittymux keeps", path)
	}
	f, err := userfile.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	data, err := userfile.ReadOpen(f, 2*maxWindowBytes)
	if errors.Is(err, userfile.ErrTooLarge) {
		return fmt.Errorf("%s is larger than kittymux keeps", path)
	}
	if err != nil {
		return err
	}
	text := Filter(data)
	if len(text) > 0 && text[len(text)-1] != '\n' {
		text = append(text, '\n')
	}
	// Colours end with the history.
	_, err = fmt.Fprintf(w, "%s\x1b[m%s\n", text, Footer(fi.ModTime(), now))
	return err
}

// ShowMain is kittymux-resume --show-history FILE, run by the restored
// window's shell before its first prompt. It always returns 0 so that the
// shell carries on; a file it cannot show is a line saying why.
func ShowMain(path string) int {
	// A file removed with its save has nothing to say.
	if err := Show(os.Stdout, path, time.Now()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(os.Stderr, "kittymux: screen history not shown: %s\n", Filter([]byte(err.Error())))
	}
	return 0
}
