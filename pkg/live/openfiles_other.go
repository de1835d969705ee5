//go:build !linux

package live

// OpenFiles: only Linux shows a process's open files in /proc. Elsewhere no
// id is read from them; the command line, claude's records and hooks remain.
func (r Records) OpenFiles(int) []string { return nil }
