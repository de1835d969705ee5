package ended

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// isKitty: /proc says pid is a kitty of this user (its binary is kitty).
// A zombie has no binary to read: gone.
func isKitty(pid int) bool {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	fi, err := os.Stat(dir)
	if err != nil {
		return false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return false
	}
	exe, err := os.Readlink(filepath.Join(dir, "exe"))
	if err != nil {
		return false
	}
	return filepath.Base(strings.TrimSuffix(exe, " (deleted)")) == "kitty"
}
