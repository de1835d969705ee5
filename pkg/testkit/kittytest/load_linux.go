package kittytest

import (
	"os"
	"strconv"
	"strings"
)

// machineLoad reads the 1-minute load average and the share of the last
// 10 s some task waited for a CPU (-1 when the kernel has no PSI).
func machineLoad() (load, pressure float64, ok bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, 0, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, 0, false
	}
	if load, err = strconv.ParseFloat(f[0], 64); err != nil {
		return 0, 0, false
	}
	pressure = -1
	if b, err := os.ReadFile("/proc/pressure/cpu"); err == nil {
		// "some avg10=28.40 avg60=27.73 avg300=14.74 total=61180195"
		line, _, _ := strings.Cut(string(b), "\n")
		for _, kv := range strings.Fields(line) {
			if v, ok := strings.CutPrefix(kv, "avg10="); ok {
				if p, err := strconv.ParseFloat(v, 64); err == nil && p >= 0 && p <= 100 {
					pressure = p / 100
				}
			}
		}
	}
	return load, pressure, true
}
