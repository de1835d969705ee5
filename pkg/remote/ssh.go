package remote

import (
	"path/filepath"
	"slices"
	"strings"
)

// SSH is an ssh command as kittymux saw a window's process run it, with
// any remote command it had left out: the options and the destination.
type SSH struct {
	// Argv is the program (as its process ran it: /proc/PID/exe), the
	// options and the destination, without any remote command.
	Argv []string
	// Dest is the destination as given ([user@]host, ssh://...).
	Dest string
	// Kitten: the ssh kitten (`kitten ssh`), which runs a remote command
	// through the login shell; like ssh, it asks for no terminal for a
	// remote command without -t (claude then reads its stdin as a prompt
	// and runs without its TUI: seen with kitty 0.48.2).
	Kitten bool
}

// sshValued are ssh's options that take a value (OpenSSH's ssh(1)
// synopsis: -B -b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w).
const sshValued = "BbcDEeFIiJLlmOopQRSWw"

// sshFlags are its options that take none.
const sshFlags = "46AaCfGgKkMNnqsTtVvXxYy"

// ParseSSH reads argv as an interactive ssh command: `ssh [options] DEST
// [command]` or `kitten ssh [options] DEST [command]` (the forms kitty
// itself knows: `kitty +kitten ssh`). The remote command, if any, is left
// out. False for anything else: an option it does not know, a -O control
// request, -N, -W, no destination.
func ParseSSH(argv []string) (SSH, bool) {
	if len(argv) == 0 {
		return SSH{}, false
	}
	var s SSH
	rest := argv[1:]
	switch base := filepath.Base(argv[0]); {
	case base == "ssh":
	case base == "kitten" && len(rest) > 0 && rest[0] == "ssh":
		s.Kitten, rest = true, rest[1:]
	case base == "kitty" && len(rest) > 1 && rest[0] == "+kitten" && rest[1] == "ssh":
		s.Kitten, rest = true, rest[2:]
	default:
		return SSH{}, false
	}
	head := len(argv) - len(rest)
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			if i+1 >= len(rest) || strings.HasPrefix(rest[i+1], "-") {
				return SSH{}, false
			}
			s.Dest = rest[i+1]
			s.Argv = slices.Clone(argv[:head+i+2])
			return s, true
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			s.Dest = a
			s.Argv = slices.Clone(argv[:head+i+1])
			return s, true
		}
		if s.Kitten && strings.HasPrefix(a, "--kitten") {
			// The kitten's own --kitten KEY=VAL (or --kitten=KEY=VAL).
			if a == "--kitten" {
				i++
			}
			continue
		}
		if strings.HasPrefix(a, "--") {
			return SSH{}, false
		}
		// A group of single-letter options; the first that takes a value
		// takes the rest of the word or the next one.
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch {
			case strings.IndexByte(sshValued, c) >= 0:
				if c == 'O' || c == 'W' {
					return SSH{}, false
				}
				if j == len(a)-1 {
					i++
					if i >= len(rest) {
						return SSH{}, false
					}
				}
				j = len(a)
			case strings.IndexByte(sshFlags, c) >= 0:
				if c == 'N' || c == 'f' || c == 'G' || c == 'V' {
					return SSH{}, false
				}
			default:
				return SSH{}, false
			}
		}
	}
	return SSH{}, false
}

// Command is s running remote on the host: the options as seen, -t for a
// terminal (neither ssh nor the kitten asks for one with a command), the
// destination, and remote as one word (ssh joins its words with spaces for
// the remote shell anyway).
func (s SSH) Command(remote string) []string {
	at := len(s.Argv) - 1 // the destination, or the "--" before it
	if at > 1 && s.Argv[at-1] == "--" {
		at--
	}
	out := slices.Clone(s.Argv[:at])
	if !slices.Contains(out[1:], "-t") {
		out = append(out, "-t")
	}
	out = append(out, s.Argv[at:]...)
	if remote != "" {
		out = append(out, remote)
	}
	return out
}

// Host is the host part of the destination, for people.
func (s SSH) Host() string {
	d := strings.TrimPrefix(s.Dest, "ssh://")
	if i := strings.LastIndexByte(d, '@'); i >= 0 {
		d = d[i+1:]
	}
	if h, _, ok := strings.Cut(d, ":"); ok && !strings.Contains(h, "[") {
		d = h
	}
	return d
}
