package published

import (
	"fmt"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// MaxRawSize caps a raw save read for publishing. kitty's saves are a few
// kilobytes per window: a larger file is not one.
const MaxRawSize = 16 << 20

// ErrNotRegular: the raw save is a directory, device, FIFO or socket.
var ErrNotRegular = userfile.ErrNotRegular

// ErrTooLarge: the raw save is over MaxRawSize.
var ErrTooLarge = userfile.ErrTooLarge

// ReadRaw reads a raw save: a regular file of at most MaxRawSize bytes,
// read as every user file is (userfile.Read): /dev/zero would never end,
// and a FIFO with no writer would block the open itself.
func ReadRaw(path string) ([]byte, error) {
	data, err := userfile.Read(path, MaxRawSize)
	if err != nil {
		return nil, fmt.Errorf("read raw save: %w", err)
	}
	return data, nil
}
