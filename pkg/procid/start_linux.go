package procid

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
)

// bootID tells two boots apart: start ticks count from boot.
var bootID = sync.OnceValue(func() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
})

func start(pid int) string {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	ticks, ok := StatStart(stat)
	if !ok {
		return ""
	}
	return StartToken(bootID(), ticks)
}

// StartToken is the start of a process as Start spells it, from the boot
// id and the start ticks read from a /proc (live reads a root of its own).
func StartToken(boot, ticks string) string {
	if boot != "" {
		return boot + ":" + ticks
	}
	return ticks
}

// StatStart is the start time (field 22, clock ticks after boot) of a
// /proc/PID/stat line. The command name (field 2) may hold spaces and
// parentheses: fields are counted after its last ')'.
func StatStart(stat []byte) (string, bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return "", false
	}
	f := strings.Fields(string(stat[i+1:]))
	// f[0] is field 3 (state): field 22 is f[19].
	if len(f) < 20 {
		return "", false
	}
	if _, err := strconv.ParseUint(f[19], 10, 64); err != nil {
		return "", false
	}
	return f[19], true
}
