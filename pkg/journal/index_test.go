package journal

import (
	"bytes"
	"encoding/json"
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
