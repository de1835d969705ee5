// Package ids shortens agents' conversation ids for people to read: the
// prompt, reports, the history and reasons all show ids this one way.
package ids

import "strings"

// Short is the part of a conversation id people read. A UUIDv7 (codex's
// ids) begins with its time in milliseconds, so two conversations started
// within a minute share their first eight hex digits: Short shows its last
// block, which is random. Any other id shows its first block (a UUIDv4
// such as claude's: eight hex digits), or at most its first 12 characters.
func Short(id string) string {
	if isUUIDv7(id) {
		return id[24:]
	}
	if i := strings.IndexAny(id, "-_"); i >= 8 {
		return id[:i]
	}
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// isUUIDv7 reports whether id is a UUID in its text form (8-4-4-4-12 hex
// digits) of version 7.
func isUUIDv7(id string) bool {
	if len(id) != 36 || id[14] != '7' {
		return false
	}
	for i := range len(id) {
		c := id[i]
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'):
			return false
		}
	}
	return true
}
