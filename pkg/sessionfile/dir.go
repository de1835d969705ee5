package sessionfile

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DirProblem says why dir cannot be written as a session file's directory
// (`cd DIR`, `--cwd=DIR`) that kitty 0.26.5 and 0.48.2 both read back as
// dir, or "" when it can. kitty writes and reads `cd` unquoted: it strips
// the line and splits it at Python's line breaks, and 0.43+ expands $VAR
// and ~ in it (and $VAR in launch options); a relative path resolves
// against the session file's directory. Only a clean absolute path of
// printable characters without '$' and without blanks at its ends is read
// the same everywhere, and POSIX quoting (a --cwd word) holds it too.
func DirProblem(dir string) string {
	switch {
	case !utf8.ValidString(dir):
		return fmt.Sprintf("the directory %q is not valid UTF-8", dir)
	case strings.ContainsFunc(dir, func(r rune) bool { return !unicode.IsPrint(r) }):
		return fmt.Sprintf("the directory %q holds control or blank characters kitty reads as line breaks or strips", dir)
	case !filepath.IsAbs(dir) || filepath.Clean(dir) != dir:
		return fmt.Sprintf("the directory %q is not a clean absolute path", dir)
	case strings.Contains(dir, "$"):
		return fmt.Sprintf("the directory %q holds a '$', which kitty 0.43 and newer expand", dir)
	case strings.TrimSpace(dir) != dir:
		return fmt.Sprintf("the directory %q ends in a blank, which kitty strips", dir)
	}
	if _, err := QuoteWord(dir); err != nil {
		return err.Error()
	}
	return ""
}

// SafeDir is the nearest directory at or above dir that DirProblem
// accepts: dir itself when it is safe, else its closest safe parent ("/"
// at worst). A relative or unclean dir is made absolute against "/" and
// cleaned first, so its result always names a real ancestor of the same
// path text.
func SafeDir(dir string) string {
	p := dir
	if !filepath.IsAbs(p) {
		p = "/" + p
	}
	// A component holding an unsafe character is cut before Clean could
	// merge it away ("a\n/.." must not become a safe-looking "").
	if i := strings.IndexFunc(p, func(r rune) bool { return !unicode.IsPrint(r) || r == '$' }); i >= 0 {
		p = p[:i]
		if j := strings.LastIndexByte(p, '/'); j >= 0 {
			p = p[:j+1]
		}
	}
	p = filepath.Clean(p)
	for DirProblem(p) != "" && p != "/" {
		p = filepath.Dir(p)
	}
	return p
}

// QuoteWord spells a word of a launch line that kitty 0.48.2's lexer and
// 0.26.5's Python shlex read back the same. It is syntax.Quote's POSIX
// quoting, which is bare or single quotes unless the word holds a single
// quote; then it is double quotes with backslashes before '"', '\', '$'
// and '`'. Python's shlex keeps the backslash before '$' and '`' inside
// double quotes (kitty 0.48.2 does not), so such a word is refused rather
// than read two ways.
func QuoteWord(s string) (string, error) {
	q, err := quote(s)
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(q, `"`) && strings.ContainsAny(s, "$`") {
		return "", fmt.Errorf("cannot write %q in a launch line: with both a single quote and '$' or '`' kitty 0.26.5 and 0.48.2 read it differently", s)
	}
	return q, nil
}
