package kittytest

import (
	"bytes"
	"sync"
)

// Buffer is a bytes.Buffer that a command writing from several goroutines
// (the scanner, a restore waiting for prompts) and a test reading it can
// share.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
