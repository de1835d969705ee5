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

// Reset empties the buffer.
func (l *Buffer) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}

// Bytes is a copy of what was written.
func (l *Buffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}

// Len is how many bytes were written.
func (l *Buffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}
