package agents

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// decodeFast decodes a definitions file as encoding/json does (decodeJSON),
// by hand and without reflection: every kittymux process, the restore prompt
// in each restored window first, loads the shipped file before anything
// else, and encoding/json spent most of that load scanning and unquoting it.
//
// It takes only plain files: every key a field's exact name and given once,
// every value of its field's type (no null), numbers whole. Anything else is
// false, and decodeAll decodes the file with encoding/json, which takes what
// it takes and says what is wrong. Where decodeFast takes a file, the two
// agree (TestDecodeFastSameAsJSON, FuzzDecodeFast).
func decodeFast(data []byte) (map[string]Definition, bool) {
	r := &reader{data: data}
	defs := map[string]Definition{}
	ok := r.object(func(name string) bool {
		if _, dup := defs[name]; dup {
			return false
		}
		var d Definition
		if !r.definition(&d) {
			return false
		}
		defs[name] = d
		return true
	})
	r.space()
	if !ok || r.i != len(r.data) {
		return nil, false
	}
	return defs, true
}

// reader reads JSON values from data at i.
type reader struct {
	data []byte
	i    int
}

func (r *reader) space() {
	for r.i < len(r.data) {
		switch r.data[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// next takes c after any whitespace.
func (r *reader) next(c byte) bool {
	r.space()
	if r.i < len(r.data) && r.data[r.i] == c {
		r.i++
		return true
	}
	return false
}

// object reads {"key": value, ...}, field reading each value; false at
// anything else, or where field returns false.
func (r *reader) object(field func(key string) bool) bool {
	if !r.next('{') {
		return false
	}
	if r.next('}') {
		return true
	}
	for {
		key, ok := r.str()
		if !ok || !r.next(':') || !field(key) {
			return false
		}
		if r.next('}') {
			return true
		}
		if !r.next(',') {
			return false
		}
	}
}

// fields reads an object of a struct's fields: field reads the value of
// key into the struct and returns its number (below 64), or false for a
// key that is no field's. A key given twice is false: encoding/json would
// merge the two values of a struct field, not replace the first.
func (r *reader) fields(field func(key string) (int, bool)) bool {
	var seen uint64
	return r.object(func(key string) bool {
		n, ok := field(key)
		if !ok || seen&(1<<n) != 0 {
			return false
		}
		seen |= 1 << n
		return true
	})
}

// str reads a string. One with an escape or with bytes that are not UTF-8
// is encoding/json's to read, as it reads them.
func (r *reader) str() (string, bool) {
	r.space()
	if r.i >= len(r.data) || r.data[r.i] != '"' {
		return "", false
	}
	start := r.i
	// Most strings end at the next quote, hold no escape and are ASCII.
	if n := bytes.IndexByte(r.data[start+1:], '"'); n >= 0 {
		raw := r.data[start+1 : start+1+n]
		if plainASCII(raw) {
			r.i = start + n + 2
			return string(raw), true
		}
	}
	plain, ascii := true, true
	for r.i++; r.i < len(r.data); r.i++ {
		switch c := r.data[r.i]; {
		case c == '"':
			r.i++
			raw := r.data[start+1 : r.i-1]
			if plain && (ascii || utf8.Valid(raw)) {
				return string(raw), true
			}
			var s string
			if json.Unmarshal(r.data[start:r.i], &s) != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			plain = false
			r.i++ // the byte escaped, which may be a quote
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// plainASCII: no escape, no control character, nothing but ASCII.
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func (r *reader) text(s *string) bool {
	v, ok := r.str()
	*s = v
	return ok
}

// list reads an array of strings; [] is an empty list, not nil, as
// encoding/json has it.
func (r *reader) list(l *[]string) bool {
	if !r.next('[') {
		return false
	}
	out := []string{}
	if !r.next(']') {
		for {
			s, ok := r.str()
			if !ok {
				return false
			}
			out = append(out, s)
			if r.next(']') {
				break
			}
			if !r.next(',') {
				return false
			}
		}
	}
	*l = out
	return true
}

func (r *reader) boolean(b *bool) bool {
	r.space()
	for _, lit := range []string{"true", "false"} {
		if len(r.data)-r.i >= len(lit) && string(r.data[r.i:r.i+len(lit)]) == lit {
			r.i += len(lit)
			*b = lit == "true"
			return true
		}
	}
	return false
}

// integer reads a whole number of at most 18 digits: -?(0|[1-9][0-9]*).
// A fraction or an exponent after it is then no ',' or '}', so false.
func (r *reader) integer(n *int) bool {
	r.space()
	start := r.i
	if r.i < len(r.data) && r.data[r.i] == '-' {
		r.i++
	}
	digits := r.i
	for r.i < len(r.data) && '0' <= r.data[r.i] && r.data[r.i] <= '9' {
		r.i++
	}
	if d := r.i - digits; d == 0 || d > 18 || d > 1 && r.data[digits] == '0' {
		return false
	}
	v, err := strconv.Atoi(string(r.data[start:r.i]))
	*n = v
	return err == nil
}

func (r *reader) definition(d *Definition) bool {
	return r.fields(func(key string) (int, bool) {
		switch key {
		case "notes":
			return 0, r.text(&d.Notes)
		case "programs":
			return 1, r.list(&d.Programs)
		case "packages":
			return 2, r.list(&d.Packages)
		case "resume":
			d.Resume = new(bool)
			return 3, r.boolean(d.Resume)
		case "renames_process":
			return 4, r.boolean(&d.RenamesProcess)
		case "title_working":
			return 5, r.list(&d.TitleWorking)
		case "title_idle":
			return 6, r.list(&d.TitleIdle)
		case "id_pattern":
			return 7, r.text(&d.IDPattern)
		case "exact":
			return 8, r.list(&d.Exact)
		case "latest":
			return 9, r.list(&d.Latest)
		case "new":
			return 10, r.list(&d.New)
		case "latest_scope":
			return 11, r.text(&d.LatestScope)
		case "latest_values":
			return 12, r.list(&d.LatestValues)
		case "session_subcommands":
			return 13, r.list(&d.SessionSubcommands)
		case "id_flags":
			return 14, r.list(&d.IDFlags)
		case "latest_flags":
			return 15, r.list(&d.LatestFlags)
		case "strip_with_value":
			return 16, r.list(&d.StripWithValue)
		case "strip_optional_value":
			return 17, r.list(&d.StripOptionalValue)
		case "strip":
			return 18, r.list(&d.Strip)
		case "secret_flags":
			return 19, r.list(&d.SecretFlags)
		case "one_shot_flags":
			return 20, r.list(&d.OneShotFlags)
		case "one_shot_values":
			return 21, r.listMap(&d.OneShotValues)
		case "one_shot_subcommands":
			return 22, r.list(&d.OneShotSubcommands)
		case "prompt_flags":
			return 23, r.list(&d.PromptFlags)
		case "positionals":
			return 24, r.text(&d.Positionals)
		case "value_flags":
			return 25, r.list(&d.ValueFlags)
		case "optional_value_flags":
			return 26, r.list(&d.OptionalValueFlags)
		case "variadic_flags":
			return 27, r.list(&d.VariadicFlags)
		case "switch_flags":
			return 28, r.list(&d.SwitchFlags)
		case "cwd_flags":
			return 29, r.list(&d.CwdFlags)
		case "helpers":
			return 30, r.list(&d.Helpers)
		case "helper_flags":
			return 31, r.list(&d.HelperFlags)
		case "probe":
			d.Probe = new(Probe)
			return 32, r.probe(d.Probe)
		case "probes":
			return 33, r.probes(&d.Probes)
		case "conversations":
			d.Conversations = new(Store)
			return 34, r.store(d.Conversations)
		}
		return 0, false
	})
}

// listMap reads an object of string arrays; {} is an empty map.
func (r *reader) listMap(m *map[string][]string) bool {
	out := map[string][]string{}
	*m = out
	return r.object(func(key string) bool {
		if _, dup := out[key]; dup {
			return false
		}
		var l []string
		ok := r.list(&l)
		out[key] = l
		return ok
	})
}

func (r *reader) probe(p *Probe) bool {
	return r.fields(func(key string) (int, bool) {
		switch key {
		case "args":
			return 0, r.list(&p.Args)
		case "expect":
			return 1, r.list(&p.Expect)
		}
		return 0, false
	})
}

func (r *reader) probes(ps *[]Probe) bool {
	if !r.next('[') {
		return false
	}
	out := []Probe{}
	if !r.next(']') {
		for {
			var p Probe
			if !r.probe(&p) {
				return false
			}
			out = append(out, p)
			if r.next(']') {
				break
			}
			if !r.next(',') {
				return false
			}
		}
	}
	*ps = out
	return true
}

func (r *reader) store(s *Store) bool {
	return r.fields(func(key string) (int, bool) {
		switch key {
		case "home_env":
			return 0, r.text(&s.HomeEnv)
		case "home":
			return 1, r.text(&s.Home)
		case "root":
			return 2, r.text(&s.Root)
		case "files":
			return 3, r.list(&s.Files)
		case "archived":
			return 4, r.list(&s.Archived)
		case "unarchive":
			return 5, r.list(&s.Unarchive)
		case "cwd_field":
			return 6, r.list(&s.CwdField)
		case "retention":
			s.Retention = new(Retention)
			return 7, r.retention(s.Retention)
		case "background":
			s.Background = new(Background)
			return 8, r.background(s.Background)
		case "home_env_sub":
			return 9, r.text(&s.HomeEnvSub)
		case "id_field":
			return 10, r.list(&s.IDField)
		case "dir_file":
			return 11, r.text(&s.DirFile)
		case "moved_by":
			s.MovedBy = new(MovedBy)
			return 12, r.movedBy(s.MovedBy)
		case "unchecked":
			return 13, r.text(&s.Unchecked)
		case "user_messages":
			s.UserMessages = new(MessageSpec)
			return 14, r.messageSpec(s.UserMessages)
		}
		return 0, false
	})
}

func (r *reader) messageSpec(m *MessageSpec) bool {
	return r.fields(func(key string) (int, bool) {
		switch key {
		case "match":
			return 0, r.list(&m.Match)
		case "text":
			return 1, r.text(&m.Text)
		case "skip_prefix":
			return 2, r.text(&m.SkipPrefix)
		}
		return 0, false
	})
}

func (r *reader) movedBy(m *MovedBy) bool {
	return r.fields(func(key string) (int, bool) {
		switch key {
		case "env":
			return 0, r.list(&m.Env)
		case "flags":
			return 1, r.list(&m.Flags)
		case "settings":
			return 2, r.list(&m.Settings)
		case "project_settings":
			return 3, r.list(&m.ProjectSettings)
		case "key":
			return 4, r.text(&m.Key)
		}
		return 0, false
	})
}

func (r *reader) retention(k *Retention) bool {
	return r.fields(func(key string) (int, bool) {
		switch key {
		case "settings":
			return 0, r.text(&k.Settings)
		case "key":
			return 1, r.text(&k.Key)
		case "default_days":
			return 2, r.integer(&k.DefaultDays)
		case "duration":
			return 3, r.boolean(&k.Duration)
		case "enabled":
			return 4, r.text(&k.Enabled)
		case "count":
			return 5, r.text(&k.Count)
		}
		return 0, false
	})
}

func (r *reader) background(b *Background) bool {
	return r.fields(func(key string) (int, bool) {
		switch key {
		case "roster":
			return 0, r.text(&b.Roster)
		case "attach":
			return 1, r.list(&b.Attach)
		}
		return 0, false
	})
}

// skimmed is one entry of a definitions file as skim reads it: its programs
// and packages, which index a set, and its bytes, decoded in full when the
// agent is first used.
type skimmed struct {
	programs, packages []string
	raw                []byte
}

// skim reads the entries of a plain definitions file for LoadLazy: of each,
// only its programs and packages are decoded; the values of its other keys
// are passed over unchecked, to be decoded (and checked, as decodeFast would
// have) by decodeEntry when the agent is first used. It is for the shipped
// file, which TestDecodeFastSameAsJSON holds to decodeFast. ok false as
// decodeFast.
func skim(data []byte) (map[string]skimmed, bool) {
	r := &reader{data: data}
	out := map[string]skimmed{}
	ok := r.object(func(name string) bool {
		if _, dup := out[name]; dup {
			return false
		}
		r.space()
		start := r.i
		var e skimmed
		if !r.object(func(key string) bool {
			switch key {
			case "programs":
				return r.list(&e.programs)
			case "packages":
				return r.list(&e.packages)
			}
			return r.skip()
		}) {
			return false
		}
		e.raw = r.data[start:r.i]
		out[name] = e
		return true
	})
	r.space()
	if !ok || r.i != len(r.data) {
		return nil, false
	}
	return out, true
}

// decodeEntry decodes one entry skim kept, as decodeFast decodes it.
func decodeEntry(raw []byte) (Definition, bool) {
	var d Definition
	r := &reader{data: raw}
	ok := r.definition(&d)
	r.space()
	return d, ok && r.i == len(r.data)
}

// skip passes over one value: a string, an object or an array of values,
// or a literal or number (up to the next delimiter).
func (r *reader) skip() bool {
	r.space()
	if r.i >= len(r.data) {
		return false
	}
	switch r.data[r.i] {
	case '"':
		return r.skipString()
	case '{':
		return r.object(func(string) bool { return r.skip() })
	case '[':
		r.i++
		if r.next(']') {
			return true
		}
		for {
			if !r.skip() {
				return false
			}
			if r.next(']') {
				return true
			}
			if !r.next(',') {
				return false
			}
		}
	}
	start := r.i
	for r.i < len(r.data) && bytes.IndexByte([]byte(",}] \t\r\n"), r.data[r.i]) < 0 {
		r.i++
	}
	return r.i > start
}

// skipString passes over a string: to the first quote after the opening
// one that an even run of backslashes (or none) comes before.
func (r *reader) skipString() bool {
	for i := r.i + 1; ; {
		n := bytes.IndexByte(r.data[i:], '"')
		if n < 0 {
			return false
		}
		i += n
		b := i
		for b > r.i+1 && r.data[b-1] == '\\' {
			b--
		}
		i++
		if (i-1-b)%2 == 0 {
			r.i = i
			return true
		}
	}
}
