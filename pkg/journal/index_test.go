package journal

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

var indexSeeds = []struct{ data, id string }{
	{`{"id":"abc"}`, "abc"},
	{`{"id":"xabc","id2":"abc"}`, "abc"},
	{`abc" "abc"`, "abc"},
	{`"abc`, "abc"},
	{`abc"`, "abc"},
	{`""abc"`, "abc"},
	{`"ab"abc"`, "abc"},
	{`"a"a"`, "a"},
	{`"a\"b"`, `a"b`},
	{``, "a"},
	{`"é"`, "é"},
}

// TestIndexQuoted: indexQuoted finds where bytes.Index does.
func TestIndexQuoted(t *testing.T) {
	for _, tc := range indexSeeds {
		quoted, _ := json.Marshal(tc.id)
		if got, want := indexQuoted([]byte(tc.data), quoted), bytes.Index([]byte(tc.data), quoted); got != want {
			t.Errorf("indexQuoted(%q, %s) = %d, want %d", tc.data, quoted, got, want)
		}
	}
}

func FuzzIndexQuoted(f *testing.F) {
	for _, tc := range indexSeeds {
		f.Add(tc.data, tc.id)
	}
	f.Fuzz(func(t *testing.T, data, id string) {
		if id == "" {
			return
		}
		quoted, _ := json.Marshal(id)
		if got, want := indexQuoted([]byte(data), quoted), bytes.Index([]byte(data), quoted); got != want {
			t.Errorf("indexQuoted(%q, %s) = %d, want %d", data, quoted, got, want)
		}
	})
}

// previousIDsByKey is how MayHaveLeft read the file before inPreviousIDs:
// every "previous_ids" list, each up to its "]", searched for the id.
func previousIDsByKey(data, quoted []byte) bool {
	const key = `"previous_ids":[`
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte(key))
		if i < 0 {
			return false
		}
		list := data[off+i+len(key):]
		if end := bytes.IndexByte(list, ']'); end >= 0 {
			list = list[:end]
		}
		if indexQuoted(list, quoted) >= 0 {
			return true
		}
		off += i + len(key)
	}
}

var previousSeeds = []struct{ data, id string }{
	{`{"id":"a","previous_ids":["b","c"]}`, "c"},
	{`{"id":"a","previous_ids":["b","c"]}`, "a"},
	{`{"id":"a","previous_ids":["b"]},{"id":"c"}`, "c"},
	{`{"previous_ids":["x"]}` + "\n" + `{"id":"b","previous_ids":["b"]}`, "b"},
	{`{"previous_ids":[]}` + "\n" + `{"id":"b"}`, "b"},
	{`{"previous_ids":["b]"]}`, "b]"},
	{``, "a"},
}

// TestInPreviousIDs: the id-first look finds every id the list-first one
// did (a record a line, as kittymux writes the journal), and on these
// seeds says the same.
func TestInPreviousIDs(t *testing.T) {
	for _, tc := range previousSeeds {
		quoted, _ := json.Marshal(tc.id)
		got, want := inPreviousIDs([]byte(tc.data), quoted), previousIDsByKey([]byte(tc.data), quoted)
		if got != want && !strings.Contains(tc.id, "]") {
			t.Errorf("inPreviousIDs(%q, %s) = %v, want %v", tc.data, quoted, got, want)
		}
	}
}

// FuzzInPreviousIDs: never a miss where the list-first look found the id,
// for data of one line (a record); a find it did not make is only a
// journal decoded for nothing.
func FuzzInPreviousIDs(f *testing.F) {
	for _, tc := range previousSeeds {
		f.Add(tc.data, tc.id)
	}
	f.Fuzz(func(t *testing.T, data, id string) {
		if id == "" || strings.Contains(data, "\n") {
			return
		}
		quoted, _ := json.Marshal(id)
		if previousIDsByKey([]byte(data), quoted) && !inPreviousIDs([]byte(data), quoted) {
			t.Errorf("inPreviousIDs(%q, %s): a miss", data, quoted)
		}
	})
}
