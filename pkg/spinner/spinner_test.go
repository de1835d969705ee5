package spinner

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestPipedShowsNothing: piped or redirected, not a byte.
func TestPipedShowsNothing(t *testing.T) {
	var b syncBuf
	s := Start(&b, "probing")
	s.Stop()
	s.Stop()
	if b.String() != "" {
		t.Errorf("wrote %q to a pipe", b.String())
	}
}

// TestTerminalShowsAndClears: on a terminal the message shows with its
// mark, and Stop clears the line.
func TestTerminalShowsAndClears(t *testing.T) {
	var b syncBuf
	s := start(&b, "probing the agent CLIs", true, 0)
	for !strings.Contains(b.String(), "probing the agent CLIs") {
		time.Sleep(5 * time.Millisecond)
	}
	s.Stop()
	out := b.String()
	if !strings.HasPrefix(out, "\r"+frames[0]+" probing the agent CLIs") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("spinner wrote %q", out)
	}
	n := len(out)
	s.Stop()
	if len(b.String()) != n {
		t.Errorf("wrote after Stop")
	}
}

// TestStoppedBeforeDelayShowsNothing: a wait shorter than the delay shows
// nothing on a terminal either.
func TestStoppedBeforeDelayShowsNothing(t *testing.T) {
	var b syncBuf
	start(&b, "x", true, time.Hour).Stop()
	if b.String() != "" {
		t.Errorf("wrote %q", b.String())
	}
}
