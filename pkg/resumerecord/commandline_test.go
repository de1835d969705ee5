package resumerecord

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCommandLine: what CommandLine writes, FromCommandLine reads back, by
// the path kittymux wrote or by the prompt's name; any other program or a
// line that is not a record is none.
func TestCommandLine(t *testing.T) {
	key := make([]byte, KeySize)
	rec := Record{Agent: "claude", Mode: "exact", ID: "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", Dir: t.TempDir(),
		Since: 1_700_000_000, LastSeen: 1_700_000_600, Argv: []string{"claude", "--resume", "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"}}
	const bin = "/opt/km/bin/resume-prompt"
	argv, err := rec.CommandLine(bin, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	if argv[0] != bin {
		t.Fatalf("program %q, want %q", argv[0], bin)
	}
	got, ok := FromCommandLine(argv, bin)
	if !ok {
		t.Fatalf("%q not read back", argv)
	}
	if err := got.VerifyIn(key, rec.Dir); err != nil {
		t.Errorf("the record read back does not verify: %v", err)
	}
	got.Seal = ""
	if diff := cmp.Diff(rec, got); diff != "" {
		t.Errorf("(-written +read):\n%s", diff)
	}
	byName := append([]string{"/usr/local/bin/" + Program}, argv[1:]...)
	if _, ok := FromCommandLine(byName, ""); !ok {
		t.Errorf("%q not read by the prompt's name", byName)
	}
	for _, bad := range [][]string{
		nil,
		append([]string{"/usr/bin/other"}, argv[1:]...),
		append([]string{""}, argv[1:]...),
		{Program, "--agent", "claude"},
		{Program, "--agent", "claude", "--mode", "choose", "--since", "200", "--seen", "100", "--", "claude"},
		{Program, "--agent", "claude", "--mode", "choose", "--seen", "soon", "--", "claude"},
	} {
		if r, ok := FromCommandLine(bad, ""); ok {
			t.Errorf("FromCommandLine(%q) = %+v, want none", bad, r)
		}
	}
}
