package tui

import "io"

// ReadKeys reads the terminal's bytes, one at a time, until it fails; the
// channel is closed then. For a screen that waits on keys and a clock at
// once: the restore prompt, the offer of an ended session.
func ReadKeys(in io.Reader) <-chan byte {
	keys := make(chan byte, 16)
	go func() {
		buf := make([]byte, 64)
		for {
			n, err := in.Read(buf)
			for _, c := range buf[:n] {
				keys <- c
			}
			if err != nil {
				close(keys)
				return
			}
		}
	}()
	return keys
}
