package procid

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTicks is USER_HZ, the unit of /proc's start times: 100 on every
// Linux architecture Go builds for.
const clockTicks = 100

// Started is when process pid started, from its start time in ticks after
// boot (/proc/PID/stat) and the boot time (/proc/stat btime); zero when
// not known.
func Started(pid int) time.Time {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return time.Time{}
	}
	s, ok := StatStart(stat)
	ticks, err := strconv.ParseInt(s, 10, 64)
	if !ok || err != nil {
		return time.Time{}
	}
	all, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}
	}
	for line := range strings.SplitSeq(string(all), "\n") {
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

// Runs reports whether pid is a process of this user whose program is
// named name (/proc/PID/exe's base name). A zombie has no program: false.
func Runs(pid int, name string) bool {
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
	return filepath.Base(strings.TrimSuffix(exe, " (deleted)")) == name
}
