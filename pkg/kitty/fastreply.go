package kitty

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// lsData returns the document in kitty's usual ls reply,
// {"ok": true, "data": "<the document as a JSON string>"} (keys in either
// order), unquoted in one pass. A reply of any other shape gives ok false, and the caller decodes
// it the general way. Going through encoding/json would scan the reply
// twice (validate, then decode) and the document once more: an ls of a
// large kitty is most of a scanner pass's work.
func lsData(raw []byte) (doc []byte, ok bool) {
	rest, ok := expect(raw, `{`)
	sawOK := false
	for ok {
		var key string
		switch {
		case bytes.HasPrefix(rest, []byte(`"ok"`)):
			key, rest = "ok", rest[len(`"ok"`):]
		case bytes.HasPrefix(rest, []byte(`"data"`)):
			key, rest = "data", rest[len(`"data"`):]
		default:
			return nil, false
		}
		if rest, ok = expect(rest, `:`); !ok {
			return nil, false
		}
		switch {
		case key == "ok" && !sawOK:
			if rest, ok = expect(rest, `true`); !ok {
				return nil, false
			}
			sawOK = true
		case key == "data" && doc == nil && len(rest) > 0 && rest[0] == '"':
			if doc, rest, ok = unquote(rest); !ok {
				return nil, false
			}
			rest = bytes.TrimLeft(rest, " \t\r\n")
		default:
			return nil, false
		}
		if r, more := expect(rest, `,`); more {
			rest = r
			continue
		}
		if r, end := expect(rest, `}`); end && len(r) == 0 && sawOK && doc != nil {
			return doc, true
		}
		return nil, false
	}
	return nil, false
}

// expect consumes tokens from b, each after optional whitespace.
func expect(b []byte, tokens ...string) ([]byte, bool) {
	for _, t := range tokens {
		b = bytes.TrimLeft(b, " \t\r\n")
		if !bytes.HasPrefix(b, []byte(t)) {
			return nil, false
		}
		b = b[len(t):]
	}
	return bytes.TrimLeft(b, " \t\r\n"), true
}

// unquote decodes the JSON string at the start of b (b[0] is '"') and
// returns it with what follows. Anything JSON does not allow gives ok
// false.
func unquote(b []byte) (s, rest []byte, ok bool) {
	out := make([]byte, 0, len(b))
	for i := 1; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			return out, b[i+1:], true
		case c < 0x20:
			return nil, nil, false
		case c != '\\':
			// Copy the run of plain bytes up to the next quote or escape.
			j, high := i, byte(0)
			for j < len(b) && plain[b[j]] {
				high |= b[j]
				j++
			}
			// kitty escapes all but ASCII; text that is not UTF-8 is
			// left to encoding/json, which replaces what is invalid.
			if high >= utf8.RuneSelf && !utf8.Valid(b[i:j]) {
				return nil, nil, false
			}
			out = append(out, b[i:j]...)
			i = j
			continue
		}
		if i+1 >= len(b) {
			return nil, nil, false
		}
		switch e := b[i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(b[i+2:])
			if !ok {
				return nil, nil, false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				r2, ok := rune(0), false
				if i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
					r2, ok = hex4(b[i+2:])
				}
				if d := utf16.DecodeRune(r, r2); ok && d != utf8.RuneError {
					r = d
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return nil, nil, false
		}
		i += 2
	}
	return nil, nil, false
}

// plain marks the bytes a JSON string holds as they are.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
