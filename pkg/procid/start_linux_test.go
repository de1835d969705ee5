package procid

import "testing"

func TestStatStart(t *testing.T) {
	line := "42 (a) b) (c) S 1 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 123456 1000 10"
	if got, ok := StatStart([]byte(line)); !ok || got != "123456" {
		t.Fatalf("StatStart = %q, %v; want 123456", got, ok)
	}
	for _, bad := range []string{"", "42 (x", "42 (x) S 1 2", "42 (x) S 1 42 42 0 -1 4 1 0 0 0 1 2 0 0 20 0 1 0 -5 1"} {
		if got, ok := StatStart([]byte(bad)); ok {
			t.Errorf("StatStart(%q) = %q, want none", bad, got)
		}
	}
}
