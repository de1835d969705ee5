package ended

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
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

// clockTicks is USER_HZ, the unit of /proc's start times: 100 on every
// Linux architecture Go builds for.
const clockTicks = 100

// started is when process pid started, from its start time in ticks after
// boot (/proc/PID/stat) and the boot time (/proc/stat btime); zero when
// not known.
func started(pid int) time.Time {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return time.Time{}
	}
	// comm may hold spaces and parentheses: fields count after the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return time.Time{}
	}
	f := strings.Fields(string(stat[i+1:]))
	// After comm: state is field 3, starttime field 22.
	if len(f) < 20 {
		return time.Time{}
	}
	ticks, err := strconv.ParseInt(f[19], 10, 64)
	if err != nil {
		return time.Time{}
	}
	all, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}
	}
	for _, line := range strings.Split(string(all), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			boot, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return time.Time{}
			}
			return time.Unix(boot, 0).Add(time.Duration(ticks) * time.Second / clockTicks)
		}
	}
	return time.Time{}
}
