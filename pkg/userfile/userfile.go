// Package userfile reads (and writes) the files a user (or anything running as the
// user) may have put where kittymux looks: kitty.conf and its includes,
// settings, templates, session files, package.json files in a cloned
// repository.
//
// Any of them may be a FIFO or a device instead of a file: a FIFO with no
// writer blocks open(2) itself, where no signal handler runs, and
// /dev/zero never ends. Every open here adds O_NONBLOCK (which changes
// nothing for a regular file's reads and writes, nor for flock) and
// O_NOCTTY (a terminal device opened by a process without one, the scanner
// started by setsid, would become its controlling terminal), checks what it
// opened with fstat and refuses anything but a regular file before reading a
// byte; and Read reads no more than a cap.
//
// This is the one place kittymux opens a file that someone other than
// kittymux may have put there: the user's files (Open, Read, Glob) and the
// state directory's files (OpenInRoot, for package statefile). Only /proc
// is read otherwise. (os.ReadDir needs no help: it opens with O_DIRECTORY,
// which refuses a FIFO without waiting.)
package userfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular: the path is a directory, FIFO, socket or device.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge: the file is larger than the reader's cap.
var ErrTooLarge = errors.New("file too large")

// Read reads the regular file at path, at most max bytes; a link is
// followed (dotfiles are often links). A missing file is an error that
// wraps fs.ErrNotExist, as os.ReadFile's is.
func Read(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadOpen(f, max)
}

// Open opens the regular file at path for reading without blocking on a
// FIFO, refusing anything else (ErrNotRegular).
func Open(path string) (*os.File, error) {
	return checked(path, func() (*os.File, error) {
		return os.OpenFile(path, os.O_RDONLY|safeFlags, 0)
	}, os.Stat)
}

// safeFlags are added to every open of a file: a FIFO without a writer
// (or, opened for writing, without a reader) does not block the open, and a
// terminal does not become the process's controlling terminal.
const safeFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY

// OpenInRoot opens name in root with flag (os.O_RDONLY, O_RDWR, O_APPEND,
// O_CREATE with perm, O_NOFOLLOW, ...) as Open does: without blocking, and
// refusing anything but a regular file (ErrNotRegular).
//
// os.Root follows a link that stays inside root whatever the flags say;
// with O_NOFOLLOW, a name that is a link is refused here (ELOOP), as
// open(2) would: the file opened must be the one the name holds itself.
func OpenInRoot(root *os.Root, name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := checked(name, func() (*os.File, error) {
		return root.OpenFile(name, flag|safeFlags, perm)
	}, root.Stat)
	if err != nil || flag&syscall.O_NOFOLLOW == 0 {
		return f, err
	}
	opened, err := f.Stat()
	if err == nil {
		var named fs.FileInfo
		if named, err = root.Lstat(name); err == nil && !os.SameFile(opened, named) {
			err = syscall.ELOOP
		}
	}
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return f, nil
}

// checked runs open and refuses what it opened unless it is a regular
// file. A FIFO opened for writing without a reader fails with ENXIO rather
// than opening: stat tells that (and a socket's ENXIO) apart from a device
// without its hardware, so that the error says what is there.
func checked(name string, open func() (*os.File, error), stat func(string) (fs.FileInfo, error)) (*os.File, error) {
	f, err := open()
	if errors.Is(err, syscall.ENXIO) {
		if fi, serr := stat(name); serr == nil && !fi.Mode().IsRegular() {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(fi.Mode()))}
		}
	}
	if err != nil {
		return nil, err
	}
	if err := CheckRegular(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// CheckRegular returns an error wrapping ErrNotRegular unless f is a
// regular file.
func CheckRegular(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &fs.PathError{Op: "read", Path: f.Name(), Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(fi.Mode()))}
	}
	return nil
}

// ReadOpen reads f, opened by Open (or checked by CheckRegular), to its
// end: at most max bytes, else an error wrapping ErrTooLarge.
func ReadOpen(f *os.File, max int64) ([]byte, error) {
	// Refused before a byte is read where its size already says so.
	var size int64
	if fi, err := f.Stat(); err == nil {
		if size = fi.Size(); size > max {
			return nil, &fs.PathError{Op: "read", Path: f.Name(), Err: fmt.Errorf("%w (%d bytes)", ErrTooLarge, size)}
		}
	}
	// Room for the whole file at once, as its size says (io.ReadAll would
	// start at 512 bytes and copy a journal of 100 KB a dozen times over).
	// The file may grow while it is read: one byte past the cap tells.
	var b bytes.Buffer
	b.Grow(int(size) + bytes.MinRead)
	_, err := b.ReadFrom(io.LimitReader(f, max+1))
	data := b.Bytes()
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: f.Name(), Err: err}
	}
	if int64(len(data)) > max {
		return nil, &fs.PathError{Op: "read", Path: f.Name(), Err: fmt.Errorf("%w (more than %d bytes)", ErrTooLarge, max)}
	}
	return data, nil
}

// Kind names what a non-regular file is, for messages.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}
