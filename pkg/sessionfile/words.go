package sessionfile

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// word is one word of a launch line: its value as kitty's lexer reads it and
// its spelling in the file, so that an unchanged word is written back as is.
type word struct {
	value string
	raw   string
}

// splitWords splits the rest of a launch line into words. at is the byte
// offset of rest in the line, so that columns in errors are the line's.
//
// mvdan.cc/sh parses the words as the arguments of a shell command; each value
// is then taken from the source text by kitty's rules (kitty/launcher/shlex.h),
// which differ from a shell's in a few places. Anything where a shell and kitty
// could split or read the text differently is refused with an error rather
// than guessed: command and arithmetic substitution, operators (; & | < > ( )),
// comments, and the like. The one expansion we accept is a parameter ($HOME,
// ${X}) whose text has no whitespace, quote or backslash: kitty reads every
// character of such text literally, so its value is exactly its source text,
// taken from the line by node positions.
func splitWords(rest string, at int) ([]word, error) {
	if rest == "" {
		return nil, nil
	}
	// A dummy command name keeps rest in argument position, where FOO=bar is
	// a word and not an assignment, and padding keeps offsets equal to the
	// line's (at is past "launch" and a blank, so at least 7).
	const dummy = "x "
	src := strings.Repeat(" ", at-len(dummy)) + dummy + rest
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, fmt.Errorf("splitting launch words: %w", err)
	}
	if len(f.Stmts) == 0 { // cannot happen: there is always the dummy
		return nil, errors.New("no words")
	}
	st := f.Stmts[0]
	if len(f.Stmts) != 1 || st.Background || st.Coprocess {
		return nil, unsupported(src, st.Semicolon, "a shell operator")
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	switch {
	case !ok:
		if bin, isBin := st.Cmd.(*syntax.BinaryCmd); isBin {
			return nil, unsupported(src, bin.OpPos, "a shell operator")
		}
		return nil, unsupported(src, st.Cmd.Pos(), "a shell compound command")
	case st.Negated:
		return nil, unsupported(src, st.Position, "a shell operator")
	case len(st.Redirs) > 0:
		return nil, unsupported(src, st.Redirs[0].Pos(), "a redirection")
	case len(call.Assigns) > 0 || len(call.Args) == 0:
		return nil, unsupported(src, st.Pos(), "an assignment")
	}
	// Between words there must be only blanks: a comment or an operator there
	// is text to kitty but not a word to the shell.
	prev := int(call.Args[0].End().Offset())
	var words []word
	for _, w := range call.Args[1:] {
		if err := onlyBlanks(src, prev, int(w.Pos().Offset())); err != nil {
			return nil, err
		}
		value, err := wordValue(src, w)
		if err != nil {
			return nil, err
		}
		prev = int(w.End().Offset())
		words = append(words, word{value: value, raw: src[w.Pos().Offset():prev]})
	}
	if err := onlyBlanks(src, prev, len(src)); err != nil {
		return nil, err
	}
	return words, nil
}

func onlyBlanks(src string, from, to int) error {
	for i := from; i < to; i++ {
		if src[i] != ' ' && src[i] != '\t' {
			return fmt.Errorf("column %d: unexpected %q: a shell would not read it as part of a word", i+1, src[i])
		}
	}
	return nil
}

func unsupported(src string, pos syntax.Pos, what string) error {
	return fmt.Errorf("column %d: %s (at %q) is not supported in a launch line", pos.Col(), what, snippet(src, int(pos.Offset())))
}

func snippet(src string, at int) string {
	s := src[at:]
	if len(s) > 20 {
		s = s[:20] + "..."
	}
	return s
}

// wordValue is the value kitty's lexer reads for one shell word.
func wordValue(src string, w *syntax.Word) (string, error) {
	var b strings.Builder
	for _, part := range w.Parts {
		text := src[part.Pos().Offset():part.End().Offset()]
		switch p := part.(type) {
		case *syntax.Lit:
			v, err := unescape(text, p.Pos())
			if err != nil {
				return "", err
			}
			b.WriteString(v)
		case *syntax.SglQuoted:
			if p.Dollar { // not produced in POSIX mode ($'x' is "$" then 'x'), but be sure
				return "", unsupported(src, p.Pos(), "ANSI-C quoting")
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", unsupported(src, p.Pos(), "a $\"...\" string")
			}
			for _, inner := range p.Parts {
				switch inner.(type) {
				case *syntax.Lit, *syntax.ParamExp:
				default:
					return "", unsupported(src, inner.Pos(), "an expansion inside double quotes")
				}
			}
			v, err := unescapeDouble(src[p.Left.Offset()+1:p.Right.Offset()], p.Left)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
		case *syntax.ParamExp:
			if strings.ContainsAny(text, " \t'\"\\") {
				return "", unsupported(src, p.Pos(), "a parameter expansion with blanks, quotes or backslashes")
			}
			b.WriteString(text) // kitty does not expand: the text is the value
		case *syntax.CmdSubst:
			return "", unsupported(src, p.Pos(), "command substitution")
		case *syntax.ArithmExp:
			return "", unsupported(src, p.Pos(), "arithmetic expansion")
		default:
			return "", unsupported(src, part.Pos(), "shell syntax")
		}
	}
	return b.String(), nil
}

// unescape applies kitty's backslash rule outside quotes: a backslash takes
// the next character literally. A shell keeps a trailing backslash; kitty
// refuses it ("Trailing backslash at end of input data"), so do we.
func unescape(text string, pos syntax.Pos) (string, error) {
	if !strings.Contains(text, `\`) {
		return text, nil
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' {
			i++
			if i == len(text) {
				return "", fmt.Errorf("column %d: trailing backslash", int(pos.Col())+i-1)
			}
		}
		b.WriteByte(text[i])
	}
	return b.String(), nil
}

// unescapeDouble reads the inside of a double-quoted string the way kitty
// does, which is not POSIX: a backslash escapes any character ("\a" is "a",
// a shell keeps `\a`), and '$' and '`' are plain text. It refuses a '"' that
// kitty would end the string at but mvdan.cc/sh did not (one nested in ${...}).
func unescapeDouble(inner string, left syntax.Pos) (string, error) {
	var b strings.Builder
	for i := 0; i < len(inner); i++ {
		switch inner[i] {
		case '\\':
			i++
			if i == len(inner) { // cannot happen: mvdan.cc/sh found the closing quote
				return "", fmt.Errorf("column %d: trailing backslash", int(left.Col())+i)
			}
		case '"':
			return "", fmt.Errorf("column %d: quote nested in a double-quoted string is not supported in a launch line", int(left.Col())+1+i)
		}
		b.WriteByte(inner[i])
	}
	return b.String(), nil
}

// quote spells a word for a launch line. syntax.Quote's POSIX quoting (bare,
// '...', or "..." escaping only " \ $ `) reads back the same with kitty's
// lexer. It refuses what POSIX quotes cannot hold (NUL, control and other
// non-printable characters, invalid UTF-8); kitty's line-based format could
// not hold most of them either.
func quote(s string) (string, error) {
	q, err := syntax.Quote(s, syntax.LangPOSIX)
	if err != nil {
		return "", fmt.Errorf("cannot write %q in a launch line: %w", s, err)
	}
	return q, nil
}
