package userfile

import (
	"os"
	"path/filepath"
	"strings"
)

// Glob is filepath.Glob with each directory listed by os.ReadDir:
// filepath.Glob checks that a directory is one (stat) and then opens it
// plainly, and a FIFO put in its place between the two blocks that open;
// os.ReadDir's open (O_DIRECTORY) refuses anything but a directory. As
// filepath.Glob, it ignores I/O errors, and its only error is
// filepath.ErrBadPattern.
func Glob(pattern string) ([]string, error) {
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil, err
	}
	if !hasMeta(pattern) {
		if _, err := os.Lstat(pattern); err != nil {
			return nil, nil
		}
		return []string{pattern}, nil
	}
	dir, file := filepath.Split(pattern)
	dir = cleanGlobPath(dir)
	if !hasMeta(dir) {
		return globIn(dir, file, nil)
	}
	if dir == pattern {
		return nil, filepath.ErrBadPattern
	}
	dirs, err := Glob(dir)
	if err != nil {
		return nil, err
	}
	var m []string
	for _, d := range dirs {
		if m, err = globIn(d, file, m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// globIn adds to m the names in dir that match pattern, in order.
func globIn(dir, pattern string, m []string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return m, nil
	}
	for _, e := range ents {
		ok, err := filepath.Match(pattern, e.Name())
		if err != nil {
			return m, err
		}
		if ok {
			m = append(m, filepath.Join(dir, e.Name()))
		}
	}
	return m, nil
}

// cleanGlobPath is filepath.Glob's: the directory part of a pattern
// without its trailing separator.
func cleanGlobPath(path string) string {
	switch path {
	case "":
		return "."
	case string(filepath.Separator):
		return path
	}
	return path[:len(path)-1]
}

func hasMeta(path string) bool { return strings.ContainsAny(path, `*?[\`) }
