package hookinstall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// object is a JSON object that keeps its members' order and their values
// as written: kittymux rewrites a user's settings file without reordering
// or re-encoding anything it did not change.
type object []member

type member struct {
	Key string
	Val json.RawMessage
}

func parseObject(data []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var o object
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, ok := t.(string)
		if !ok {
			return nil, errors.New("object key is not a string")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		// A key twice is read differently by different parsers: refuse.
		if seen[k] {
			return nil, fmt.Errorf("key %q appears twice", k)
		}
		seen[k] = true
		o = append(o, member{k, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the object")
	}
	return o, nil
}

func (o object) has(k string) bool {
	for _, m := range o {
		if m.Key == k {
			return true
		}
	}
	return false
}

func (o object) get(k string) json.RawMessage {
	for _, m := range o {
		if m.Key == k {
			return m.Val
		}
	}
	return nil
}

// object returns member k as an object; a missing one is empty.
func (o object) object(k string) (object, error) {
	raw := o.get(k)
	if raw == nil {
		return nil, nil
	}
	sub, err := parseObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%q is not an object: %w", k, err)
	}
	return sub, nil
}

// set replaces member k's value in place, or appends it.
func (o object) set(k string, v json.RawMessage) object {
	for i := range o {
		if o[i].Key == k {
			o[i].Val = v
			return o
		}
	}
	return append(o, member{k, v})
}

func (o object) del(k string) object {
	var out object
	for _, m := range o {
		if m.Key != k {
			out = append(out, m)
		}
	}
	return out
}

func (o object) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.Key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.Val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// format is the file's new text, indented two spaces as the agents write
// their own settings.
func (o object) format() ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, o.marshal(), "", "  "); err != nil {
		return nil, fmt.Errorf("format settings: %w", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
