package rewrite_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/remote"
	"github.com/kittymux/kittymux/pkg/resumerecord"
	"github.com/kittymux/kittymux/pkg/rewrite"
)

// A window running `kitten ssh devbox` whose host's hook reported claude:
// the record runs the ssh command kittymux saw (the process's argv), with
// the hint as values for the host to check; the old hint is not carried
// into the restored window. A window that only prints a hint (no ssh seen
// there) gets nothing, and its printed hint goes.
func TestRewriteRemoteWindow(t *testing.T) {
	const id = "9d1c7e42-5b6a-4c3d-8e2f-1a0b9c8d7e6f"
	hint := remote.Hint{Agent: "claude", ID: id, Dir: "/home/u/api", Host: "devbox.lan"}
	kitten := []string{"/opt/kitty/bin/kitten", "ssh", "devbox"}
	raw := []byte("new_tab\ncd /home/me\n\n" +
		`launch 'kitty-unserialize-data={"id": 1, "cmd_at_shell_startup": ["kitten", "ssh", "devbox"]}' '--var=kittymux_remote=` + hint.Encode() + `'` + "\n" +
		`launch 'kitty-unserialize-data={"id": 2}' '--var=kittymux_remote=` + hint.Encode() + `'` + "\n")
	s, _ := remote.ParseSSH(kitten)
	res, err := rewrite.Rewrite(raw, rewrite.Options{Agents: shipped(t), ResumeBin: bin, Key: testKey,
		Remote: map[int]remote.Seen{1: {WindowID: 1, SSH: s, Hint: hint}, 2: {WindowID: 2, Hint: hint}}})
	if err != nil {
		t.Fatal(err)
	}
	recs := records(t, res.Data)
	want := resumerecord.Record{Agent: "claude", Mode: "exact", ID: id, FromShell: true, Dir: "/home/me",
		Remote: "devbox.lan", RemoteDir: "/home/u/api", Argv: kitten}
	got := recs[1]
	if err := got.Verify(testKey); err != nil {
		t.Errorf("not sealed: %v", err)
	}
	got.Seal = ""
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("record (-want +got):\n%s\n%s", d, res.Data)
	}
	if len(recs) != 1 || bytes.Contains(res.Data, []byte(remote.Var)) {
		t.Errorf("published:\n%s", res.Data)
	}
	if len(res.Windows) != 1 || res.Windows[0].Host != "devbox" || res.Windows[0].ReportedBy != "devbox.lan" {
		t.Errorf("outcomes %+v", res.Windows)
	}
	// No hint: kitty's own line, which reconnects.
	res, err = rewrite.Rewrite(raw, rewrite.Options{Agents: shipped(t), ResumeBin: bin, Key: testKey,
		Remote: map[int]remote.Seen{1: {WindowID: 1, SSH: s}}})
	if err != nil || len(records(t, res.Data)) != 0 || !bytes.Contains(res.Data, []byte(`["kitten", "ssh", "devbox"]`)) {
		t.Errorf("%v\n%s", err, res.Data)
	}
}
