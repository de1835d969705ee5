package live

import (
	"os"
	"path/filepath"
	"strconv"
)

// OpenFiles lists the paths of the files process pid holds open, from
// /proc/<pid>/fd. A process of another user, or one gone meanwhile, gives
// none.
func (r Records) OpenFiles(pid int) []string {
	root := r.ProcRoot
	if root == "" {
		root = "/proc"
	}
	dir := filepath.Join(root, strconv.Itoa(pid), "fd")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if target, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && filepath.IsAbs(target) {
			out = append(out, target)
		}
	}
	return out
}
