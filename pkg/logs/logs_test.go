package logs

import (
	"fmt"
	"testing"
)

func TestPrintf(t *testing.T) {
	var got []string
	l := Logf(func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) })
	l.Printf("saved %s in %d ms", "4242", 12)
	var none Logf
	none.Printf("dropped %d", 1) // a nil Logf logs nothing, and does not panic
	if len(got) != 1 || got[0] != "saved 4242 in 12 ms" {
		t.Errorf("logged %q", got)
	}
}
