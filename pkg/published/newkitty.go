package published

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/sessionfile"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// ForNewKitty returns the file a new kitty should load for the save at
// path. A save of one OS window starts with new_os_window: goto_session
// skips the empty section before it, but a kitty started with --session
// opens an OS window for it, a stray shell. Such a file is loaded from a
// copy without that line.
func ForNewKitty(p paths.Paths, path string) (string, error) {
	data, err := userfile.Read(path, MaxRawSize)
	if err != nil {
		return "", err
	}
	file, err := sessionfile.Parse(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	for i, l := range file.Lines {
		switch {
		case l.Directive == "" || strings.HasPrefix(l.Directive, "#"):
			continue
		case l.Directive != "new_os_window":
			return path, nil
		}
		file.Lines = append(file.Lines[:i:i], file.Lines[i+1:]...)
		out, err := file.Encode()
		if err != nil {
			return "", err
		}
		copyPath := filepath.Join(filepath.Dir(path), paths.NewKittyPrefix+filepath.Base(path))
		if err := statefile.WriteFile(p.StateDir, copyPath, out); err != nil {
			return "", err
		}
		return copyPath, nil
	}
	return path, nil
}
