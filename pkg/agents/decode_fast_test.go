package agents

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/assets"
)

// fastSeeds are files decodeFast takes (fast) or leaves to encoding/json.
var fastSeeds = []struct {
	name, data string
	fast       bool
}{
	{"shipped", string(assets.ResumeAgents), true},
	{"empty object", `{}`, true},
	{"whitespace", " \t\r\n{ \"a\" :\n{ \"programs\" : [ \"a\" , \"b\" ] } }\n ", true},
	{"empty lists and maps", `{"a": {"exact": [], "one_shot_values": {}, "probes": [], "probe": {}, "conversations": {"retention": {}}}}`, true},
	{"escapes", `{"a\u0041": {"notes": "say \"hi\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "programs": ["x\u002fy"]}}`, true},
	{"utf-8", `{"a": {"notes": "café ↻ 😀"}}`, true},
	{"bad utf-8", "{\"a\": {\"notes\": \"x\xff\xfey\"}}", true},
	{"lone surrogate", `{"a": {"notes": "\ud800"}}`, true},
	{"numbers", `{"a": {"conversations": {"retention": {"default_days": -0}}}, "b": {"conversations": {"retention": {"default_days": 123456789012345678}}}}`, true},
	{"resume false", `{"a": {"resume": false, "renames_process": true}}`, true},
	{"null file", `null`, false},
	{"null value", `{"a": {"programs": null}}`, false},
	{"null entry", `{"a": null}`, false},
	{"key case", `{"a": {"Programs": ["a"]}}`, false},
	{"unknown field", `{"a": {"programz": ["a"]}}`, false},
	{"duplicate name", `{"a": {}, "a": {"notes": "x"}}`, false},
	{"duplicate field", `{"a": {"notes": "x", "notes": "y"}}`, false},
	{"duplicate probe field", `{"a": {"probe": {"args": ["a"], "args": ["b"]}}}`, false},
	{"duplicate map key", `{"a": {"one_shot_values": {"-p": ["a"], "-p": ["b"]}}}`, false},
	{"fraction", `{"a": {"conversations": {"retention": {"default_days": 1.5}}}}`, false},
	{"exponent", `{"a": {"conversations": {"retention": {"default_days": 1e3}}}}`, false},
	{"leading zero", `{"a": {"conversations": {"retention": {"default_days": 01}}}}`, false},
	{"too many digits", `{"a": {"conversations": {"retention": {"default_days": 1234567890123456789}}}}`, false},
	{"wrong type", `{"a": {"exact": "x"}}`, false},
	{"bool as string", `{"a": {"resume": "true"}}`, false},
	{"control character", "{\"a\": {\"notes\": \"a\tb\"}}", false},
	{"bad escape", `{"a": {"notes": "\x"}}`, false},
	{"trailing comma", `{"a": {"programs": ["a",]}}`, false},
	{"trailing data", `{"a": {}} x`, false},
	{"two values", `{} {}`, false},
	{"truncated", `{"a": {"notes": "x`, false},
	{"not an object", `[]`, false},
	{"literal run on", `{"a": {"resume": truex}}`, false},
	{"quotes and backslashes", `{"a": {"notes": "\\", "programs": ["x"]}, "b": {"notes": "\\\"}", "packages": ["p"]}}`, true},
}

// TestDecodeFastSameAsJSON: where decodeFast takes a file, encoding/json
// takes it too and decodes the same; the shipped file is one it takes.
func TestDecodeFastSameAsJSON(t *testing.T) {
	for _, tc := range fastSeeds {
		t.Run(tc.name, func(t *testing.T) {
			got, fast := decodeFast([]byte(tc.data))
			if fast != tc.fast {
				t.Errorf("decodeFast took it: %v, want %v", fast, tc.fast)
			}
			if !fast {
				return
			}
			want, ok := decodeJSON([]byte(tc.data))
			if !ok {
				t.Fatal("decodeFast took a file encoding/json does not")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("definitions (-encoding/json +decodeFast):\n%s", diff)
			}
		})
	}
}

// TestSkimSameAsDecodeFast: where decodeFast takes a file, skim takes it
// too, with each entry's programs and packages, and its kept bytes decode
// to the entry decodeFast gives.
func TestSkimSameAsDecodeFast(t *testing.T) {
	for _, tc := range fastSeeds {
		t.Run(tc.name, func(t *testing.T) { sameSkim(t, []byte(tc.data)) })
	}
}

func sameSkim(t *testing.T, data []byte) {
	t.Helper()
	defs, fast := decodeFast(data)
	if !fast {
		return
	}
	entries, ok := skim(data)
	if !ok || len(entries) != len(defs) {
		t.Fatalf("skim: %v, %d entries of %d", ok, len(entries), len(defs))
	}
	for name, d := range defs {
		e, ok := entries[name]
		if !ok {
			t.Fatalf("skim has no %q", name)
		}
		if diff := cmp.Diff([2][]string{d.Programs, d.Packages}, [2][]string{e.programs, e.packages}); diff != "" {
			t.Errorf("%s: programs and packages (-decodeFast +skim):\n%s", name, diff)
		}
		got, ok := decodeEntry(e.raw)
		if diff := cmp.Diff(d, got); !ok || diff != "" {
			t.Errorf("%s: decodeEntry %v (-decodeFast +skim):\n%s", name, ok, diff)
		}
	}
}

// TestDecodeFastEveryField: a definition with every field set, as
// encoding/json writes it, is read back whole, so a field added to
// Definition without its key in decodeFast fails here.
func TestDecodeFastEveryField(t *testing.T) {
	var d Definition
	fill(reflect.ValueOf(&d).Elem(), "x")
	data, err := json.Marshal(map[string]Definition{"a": d})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := decodeFast(data)
	if !ok {
		t.Fatalf("decodeFast does not take %s", data)
	}
	if diff := cmp.Diff(map[string]Definition{"a": d}, got); diff != "" {
		t.Errorf("definitions (-written +read):\n%s", diff)
	}
}

// fill sets every field of v, all the way down, to a value that is not zero.
func fill(v reflect.Value, name string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(name)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int:
		v.SetInt(7)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), name)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), name+"0")
		fill(v.Index(1), name+"1")
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, name+"v")
		v.SetMapIndex(reflect.ValueOf(name+"k"), e)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), v.Type().Field(i).Name)
		}
	default:
		panic("fill: " + v.Kind().String())
	}
}

func FuzzDecodeFast(f *testing.F) {
	for _, tc := range fastSeeds {
		f.Add([]byte(tc.data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameSkim(t, data)
		got, fast := decodeFast(data)
		if !fast {
			return
		}
		want, ok := decodeJSON(data)
		if !ok {
			t.Fatalf("decodeFast took a file encoding/json does not: %q", data)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("definitions (-encoding/json +decodeFast) of %q:\n%s", data, diff)
		}
	})
}
