package journal

import (
	"testing"
	"time"
)

func TestParseAge(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{in: "90m", want: 90 * time.Minute},
		{in: "6h", want: 6 * time.Hour},
		{in: "7d", want: 7 * 24 * time.Hour},
		{in: "0h", bad: true},
		{in: "1h30m", bad: true},
		{in: "6", bad: true},
		{in: "-6h", bad: true},
		{in: "6 h", bad: true},
		{in: "2w", bad: true},
		{in: "", bad: true},
	} {
		got, err := ParseAge(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("ParseAge(%q) = %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}
