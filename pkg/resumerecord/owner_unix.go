//go:build unix

package resumerecord

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUs: a key file someone else owns could have been chosen by them.
func ownedByUs(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
