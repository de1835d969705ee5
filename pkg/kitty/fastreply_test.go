package kitty

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLSData: the one-pass read of an ls reply agrees with encoding/json on
// every reply it takes, and leaves every other shape to it.
func TestLSData(t *testing.T) {
	tests := []struct {
		name  string
		reply string
		ok    bool
	}{
		{"kitty's own", `{"ok": true, "data": "[{\"id\": 1, \"title\": \"\\u2733 caf\\u00e9 \\ud83d\\ude00\"}]"}`, true},
		{"a raw newline", "{\"data\":\"[1,\n2]\",\"ok\":true}", false},
		{"keys the other way", `{"data":"[1,\\n2, \"\\\\ \\/ \\b\\f\\r\\t\"]","ok":true}`, true},
		{"a lone surrogate", `{"ok": true, "data": "\"\\ud83d x\""}`, true},
		{"not ok", `{"ok": false, "error": "no"}`, false},
		{"another key", `{"ok": true, "data": "1", "tb": ""}`, false},
		{"data twice", `{"ok": true, "data": "1", "data": "2"}`, false},
		{"no ok", `{"data": "1"}`, false},
		{"data not a string", `{"ok": true, "data": [1]}`, false},
		{"bad escape", `{"ok": true, "data": "\x41"}`, false},
		{"short unicode escape", `{"ok": true, "data": "\u12"}`, false},
		{"cut short", `{"ok": true, "data": "[1`, false},
		{"trailing garbage", `{"ok": true, "data": "1"} x`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, ok := lsData([]byte(tt.reply))
			if ok != tt.ok {
				t.Fatalf("ok %v, want %v (doc %q)", ok, tt.ok, doc)
			}
			if !ok {
				return
			}
			var want struct {
				Data string `json:"data"`
			}
			if err := json.Unmarshal([]byte(tt.reply), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.Data, string(doc)); diff != "" {
				t.Errorf("(-encoding/json +lsData):\n%s", diff)
			}
		})
	}
}

// FuzzUnquote: whatever unquote accepts, encoding/json reads the same.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`"a"`, `"\u00e9\ud83d\ude00"`, `"\ud83d"`, `"\\\"\/\b\f\n\r\t"`, `"é"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != '"' {
			return
		}
		got, rest, ok := unquote(b)
		if !ok {
			return
		}
		var want string
		if err := json.Unmarshal(b[:len(b)-len(rest)], &want); err != nil {
			t.Fatalf("unquote took %q, encoding/json refused it: %v", b, err)
		}
		if string(got) != want {
			t.Errorf("unquote %q = %q, encoding/json %q", b, got, want)
		}
	})
}

// BenchmarkDecodeLSReply: the client's work on one ls reply of kitty 0.48.2
// (no socket): find and unquote the document, decode it.
func BenchmarkDecodeLSReply(b *testing.B) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "testdata", "kitty", "0.48.2", "ls.json"))
	if err != nil {
		b.Fatal(err)
	}
	quoted, _ := json.Marshal(string(doc))
	reply := append(append([]byte(`{"ok": true, "data": `), quoted...), '}')
	c := &Client{}
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var s *string
			if err := c.decodeReply("ls", reply, &s); err != nil {
				b.Fatal(err)
			}
			if _, err := decodeLS([]byte(*s)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("one-pass", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d, ok := lsData(reply)
			if !ok {
				b.Fatal("not taken")
			}
			if _, err := decodeLS(d); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkDecodeLSLean(b *testing.B) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "testdata", "kitty", "0.48.2", "ls.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("full", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeLS(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lean", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeLSLean(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestDecodeLSLean: the lean decode is the full one less windows' env and
// cmdline and tabs' layouts, on old and new kitty's ls.
func TestDecodeLSLean(t *testing.T) {
	for _, fixture := range []string{"0.26.5-ls.json", "0.48.2/ls.json"} {
		t.Run(fixture, func(t *testing.T) {
			doc, err := os.ReadFile(filepath.Join("..", "..", "testdata", "kitty", fixture))
			if err != nil {
				t.Fatal(err)
			}
			want, err := decodeLS(doc)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				for j := range want[i].Tabs {
					tab := &want[i].Tabs[j]
					tab.LayoutState, tab.EnabledLayouts, tab.ActiveWindowHistory = nil, nil, nil
					for k := range tab.Windows {
						tab.Windows[k].Env, tab.Windows[k].Cmdline = nil, nil
					}
				}
			}
			got, err := decodeLSLean(doc)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if len(Windows(got)) == 0 {
				t.Errorf("no windows read")
			}
		})
	}
}
