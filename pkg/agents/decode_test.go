package agents

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/assets"
)

// TestDecodeFileSameAsEntries: decoding a file in one pass gives what
// decoding it entry by entry gives, the shipped file and broken ones alike.
func TestDecodeFileSameAsEntries(t *testing.T) {
	const ok = `"exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], "probe": {"args": ["--help"], "expect": ["--resume"]}`
	for _, tc := range []struct {
		name, data string
		onePass    bool // decodeAll takes it: nothing for the entries to say
	}{
		{"shipped", string(assets.ResumeAgents), true},
		{"empty object", `{}`, true},
		{"null", `null`, true},
		{"one good", `{"aa": {` + ok + `}}`, true},
		{"bad name", `{"Aa": {` + ok + `}, "bb": {` + ok + `}}`, true},
		{"invalid definition", `{"aa": {"exact": ["x"]}, "bb": {` + ok + `}}`, true},
		{"duplicate name", `{"aa": {"notes": "first"}, "aa": {` + ok + `}}`, true},
		{"unknown field", `{"aa": {"exactly": []}, "bb": {` + ok + `}}`, false},
		{"wrong type", `{"aa": {"exact": "x"}, "bb": {` + ok + `}}`, false},
		{"bad name and unknown field", `{"Aa": {"exactly": []}, "bb": {` + ok + `}}`, false},
		{"entry not an object", `{"aa": 3, "bb": {` + ok + `}}`, false},
		{"trailing data", `{"aa": {` + ok + `}} x`, false},
		{"not an object", `[]`, false},
		{"not JSON", `{"aa": `, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, onePass := decodeAll([]byte(tc.data)); onePass != tc.onePass {
				t.Errorf("decodeAll took it: %v, want %v", onePass, tc.onePass)
			}
			got, gotErr := decodeFile([]byte(tc.data), "f.json")
			want, wantErr := decodeEntries([]byte(tc.data), "f.json")
			if diff := cmp.Diff(defsOf(want), defsOf(got)); diff != "" {
				t.Errorf("definitions (-entries +decodeFile):\n%s", diff)
			}
			if diff := cmp.Diff(errText(wantErr), errText(gotErr)); diff != "" {
				t.Errorf("error (-entries +decodeFile):\n%s", diff)
			}
		})
	}
}

func defsOf(m map[string]*agent) map[string]Definition {
	if m == nil {
		return nil
	}
	out := map[string]Definition{}
	for n, a := range m {
		out[n] = a.def
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
