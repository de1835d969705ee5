package sessions

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// MaxRawSize caps a raw save read for publishing. kitty's saves are a few
// kilobytes per window: a larger file is not one.
const MaxRawSize = 16 << 20

// ErrNotRegular: the raw save is a directory, device, FIFO or socket.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge: the raw save is over MaxRawSize.
var ErrTooLarge = fmt.Errorf("larger than %d MiB", MaxRawSize>>20)

// ReadRaw reads a raw save: a regular file of at most MaxRawSize bytes.
// Anything else is refused at once, before a byte is read: /dev/zero would
// never end, and a FIFO with no writer would block the open itself, which
// O_NONBLOCK prevents (the flag does nothing to a regular file's reads).
func ReadRaw(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("read raw save: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read raw save: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("read raw save %s: %w (%s)", path, ErrNotRegular, kind(fi.Mode()))
	}
	if fi.Size() > MaxRawSize {
		return nil, fmt.Errorf("read raw save %s: %w (%d bytes)", path, ErrTooLarge, fi.Size())
	}
	// The file may grow after the stat: read one byte past the cap to know.
	data, err := io.ReadAll(io.LimitReader(f, MaxRawSize+1))
	if err != nil {
		return nil, fmt.Errorf("read raw save %s: %w", path, err)
	}
	if len(data) > MaxRawSize {
		return nil, fmt.Errorf("read raw save %s: %w (it grew while read)", path, ErrTooLarge)
	}
	return data, nil
}

func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a block device"
	}
	return "mode " + m.String()
}
