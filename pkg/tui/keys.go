package tui

import (
	"errors"
	"io"
	"os"

	"golang.org/x/term"
)

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

// RawKeys reads the terminal in raw mode, key by key (ReadKeys); done puts
// it back as it was, once however often it is called. in must be a
// terminal.
func RawKeys(in io.Reader) (keys <-chan byte, done func(), err error) {
	file, ok := in.(*os.File)
	if !ok || !term.IsTerminal(int(file.Fd())) {
		return nil, nil, errors.New("standard input is not a terminal")
	}
	old, err := term.MakeRaw(int(file.Fd()))
	if err != nil {
		return nil, nil, err
	}
	restored := false
	return ReadKeys(file), func() {
		if !restored {
			restored = true
			_ = term.Restore(int(file.Fd()), old)
		}
	}, nil
}
