package journal

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"
)

var ageRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]{1,6})([mhd])$`) })

// ParseAge reads how far back a command looks (`--since`): a whole number
// of minutes, hours or days, as people type it: 90m, 6h, 7d. Go's
// durations have no days, and "1h30m" is not what anyone types here.
func ParseAge(s string) (time.Duration, error) {
	m := ageRE().FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("%q is not an age: use minutes, hours or days, such as 90m, 6h or 7d", s)
	}
	n, _ := strconv.Atoi(m[1])
	if n == 0 {
		return 0, fmt.Errorf("%q is no time at all: use minutes, hours or days, such as 90m, 6h or 7d", s)
	}
	unit := map[string]time.Duration{"m": time.Minute, "h": time.Hour, "d": 24 * time.Hour}[m[2]]
	return time.Duration(n) * unit, nil
}
