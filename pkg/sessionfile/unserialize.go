package sessionfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// unserializeFlag starts the first word of a launch line written by
// save_as_session (kitty/constants.py unserialize_launch_flag).
const unserializeFlag = "kitty-unserialize-data="

const cmdKey = "cmd_at_shell_startup"

// UnserializeData is the JSON of a launch line's kitty-unserialize-data word.
// Keys other than id and cmd_at_shell_startup are kept as they are.
type UnserializeData struct {
	// CmdAtShellStartup is what kitty asks the shell's integration script to
	// run when the window is restored.
	CmdAtShellStartup CmdAtShellStartup

	id     int
	idRaw  string
	fields []jsonField // in file order, each key once
	raw    string      // the JSON as in the file
	orig   CmdAtShellStartup
}

// CmdAtShellStartup is cmd_at_shell_startup: unset, a string (the command line
// the user typed, from shell integration) or a list (the foreground process's
// argv, read from /proc).
type CmdAtShellStartup struct {
	Set    bool
	IsList bool
	String string   // when Set and !IsList
	List   []string // when Set and IsList
}

func (c CmdAtShellStartup) equal(d CmdAtShellStartup) bool {
	switch {
	case c.Set != d.Set:
		return false
	case !c.Set:
		return true
	case c.IsList != d.IsList:
		return false
	case c.IsList:
		return slices.Equal(c.List, d.List)
	}
	return c.String == d.String
}

func (c CmdAtShellStartup) clone() CmdAtShellStartup {
	c.List = slices.Clone(c.List)
	return c
}

type jsonField struct {
	key   string
	value json.RawMessage
}

// ID is kitty's old window id. set_layout_state refers to windows by it, so
// it cannot be changed.
func (u *UnserializeData) ID() int { return u.id }

// Keys are the JSON object's keys, in file order.
func (u *UnserializeData) Keys() []string {
	keys := make([]string, len(u.fields))
	for i, f := range u.fields {
		keys[i] = f.key
	}
	return keys
}

func (u *UnserializeData) modified() bool { return !u.CmdAtShellStartup.equal(u.orig) }

// JSON is the data as it will be written: as in the file when unmodified.
// When cmd_at_shell_startup changed, the object is written the way kitty's
// json.dumps does (", " and ": " separators, non-ASCII escaped), id first,
// then the other keys in their original order with their values.
func (u *UnserializeData) JSON() (string, error) {
	if !u.modified() {
		return u.raw, nil
	}
	var b strings.Builder
	b.WriteString(`{"id": `)
	b.WriteString(u.idRaw)
	wroteCmd := false
	writeCmd := func() error {
		wroteCmd = true
		if !u.CmdAtShellStartup.Set {
			return nil
		}
		b.WriteString(`, "` + cmdKey + `": `)
		return encodeCmd(&b, u.CmdAtShellStartup)
	}
	for _, f := range u.fields {
		switch f.key {
		case "id":
		case cmdKey:
			if err := writeCmd(); err != nil {
				return "", err
			}
		default:
			b.WriteString(", ")
			pyString(&b, f.key)
			b.WriteString(": ")
			dec := json.NewDecoder(bytes.NewReader(f.value))
			dec.UseNumber()
			if err := pyValue(&b, dec); err != nil {
				return "", fmt.Errorf("re-encoding %q: %w", f.key, err)
			}
		}
	}
	if !wroteCmd {
		if err := writeCmd(); err != nil {
			return "", err
		}
	}
	b.WriteString("}")
	return b.String(), nil
}

func encodeCmd(b *strings.Builder, c CmdAtShellStartup) error {
	if !c.IsList {
		if !utf8.ValidString(c.String) {
			return fmt.Errorf("%s %q is not valid UTF-8", cmdKey, c.String)
		}
		pyString(b, c.String)
		return nil
	}
	b.WriteString("[")
	for i, s := range c.List {
		if !utf8.ValidString(s) {
			return fmt.Errorf("%s %q is not valid UTF-8", cmdKey, s)
		}
		if i > 0 {
			b.WriteString(", ")
		}
		pyString(b, s)
	}
	b.WriteString("]")
	return nil
}

// pyValue re-encodes the next JSON value of dec as json.dumps would write it
// after json.loads: same order, Python's separators, ASCII only. Numbers keep
// their spelling (Python would write 1e2 as 100.0; the value is the same).
func pyValue(b *strings.Builder, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		b.WriteRune(rune(t))
		for i := 0; dec.More(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			if t == '{' {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				pyString(b, key.(string))
				b.WriteString(": ")
			}
			if err := pyValue(b, dec); err != nil {
				return err
			}
		}
		end, err := dec.Token()
		if err != nil {
			return err
		}
		b.WriteRune(rune(end.(json.Delim)))
	case string:
		pyString(b, t)
	case json.Number:
		b.WriteString(t.String())
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	}
	return nil
}

// pyString writes s as Python's json.dumps does by default (ensure_ascii):
// only printable ASCII stays as is; \b \f \n \r \t " \ get short escapes and
// everything else \uXXXX, as a surrogate pair above U+FFFF. s is valid UTF-8.
func pyString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			switch {
			case r >= ' ' && r <= '~':
				b.WriteRune(r)
			case r > 0xffff:
				r -= 0x10000
				fmt.Fprintf(b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			default:
				fmt.Fprintf(b, `\u%04x`, r)
			}
		}
	}
	b.WriteByte('"')
}

// parseUnserialize reads the JSON after kitty-unserialize-data=. Like Python's
// json.loads into a dict, a repeated key keeps its first position and its
// last value.
func parseUnserialize(s string) (*UnserializeData, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	u := &UnserializeData{raw: s}
	index := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("bad JSON: %w", err)
		}
		key, _ := tok.(string) // inside an object, Token returns a key here
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, fmt.Errorf("bad JSON: %w", err)
		}
		if i, dup := index[key]; dup {
			u.fields[i].value = value
		} else {
			index[key] = len(u.fields)
			u.fields = append(u.fields, jsonField{key, value})
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("bad JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("bad JSON: data after the object")
	}
	for _, f := range u.fields {
		switch f.key {
		case "id":
			id, err := strconv.Atoi(string(f.value))
			if err != nil {
				return nil, fmt.Errorf("id %s is not an integer", f.value)
			}
			u.id, u.idRaw = id, string(f.value)
		case cmdKey:
			c, err := decodeCmd(f.value)
			if err != nil {
				return nil, err
			}
			u.CmdAtShellStartup, u.orig = c, c.clone()
		}
	}
	if u.idRaw == "" {
		return nil, errors.New("no id")
	}
	return u, nil
}

func decodeCmd(raw json.RawMessage) (CmdAtShellStartup, error) {
	bad := fmt.Errorf("%s is %s, not a string or a list of strings", cmdKey, raw)
	switch {
	case bytes.HasPrefix(raw, []byte(`"`)):
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return CmdAtShellStartup{}, bad
		}
		return CmdAtShellStartup{Set: true, String: s}, nil
	case bytes.HasPrefix(raw, []byte(`[`)):
		// Elements through RawMessage: unmarshalling null into a string
		// would quietly give "".
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return CmdAtShellStartup{}, bad
		}
		list := make([]string, len(elems))
		for i, e := range elems {
			if !bytes.HasPrefix(e, []byte(`"`)) || json.Unmarshal(e, &list[i]) != nil {
				return CmdAtShellStartup{}, bad
			}
		}
		return CmdAtShellStartup{Set: true, IsList: true, List: list}, nil
	}
	return CmdAtShellStartup{}, bad
}
