package journal

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// keysOf lists the records' keys, with their runs, as the journal reads.
func keysOf(t *testing.T, j *Journal) []string {
	t.Helper()
	f, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range f.Records {
		out = append(out, fmt.Sprintf("%s:%d", r.Key, r.RunsFinished))
	}
	return out
}

// another is another Journal of j's file, as another process has it.
func another(j *Journal) *Journal {
	o := New(j.Path, false)
	o.Clock = j.Clock
	return o
}

func mustUpdate(t *testing.T, j *Journal, fn func(f *File)) {
	t.Helper()
	if _, err := j.Update(func(f *File) error { fn(f); return nil }); err != nil {
		t.Fatal(err)
	}
}

func logLines(t *testing.T, j *Journal) []string {
	t.Helper()
	b, err := os.ReadFile(j.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestLogAppends: the first update writes the journal file and starts its
// log; each update after it appends one line naming only what it changed,
// and leaves the file as it was. Another Journal reads the same.
func TestLogAppends(t *testing.T) {
	j := newAt(t, t0)
	mustUpdate(t, j, func(f *File) {
		for i := range 3 {
			f.Upsert(rec(fmt.Sprintf("k%d", i), true, t0))
		}
	})
	file, err := os.ReadFile(j.Path)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(j.Path)
	if got := logLines(t, j); len(got) != 1 || !strings.HasPrefix(got[0], `{"log":`) {
		t.Fatalf("a new log: %q", got)
	}
	mustUpdate(t, j, func(f *File) { f.Find("k1").RunsFinished = 5 })
	mustUpdate(t, j, func(f *File) { f.Upsert(rec("k3", true, t0)) })
	mustUpdate(t, j, func(f *File) { f.Records = f.Records[1:] }) // k0 dropped
	mustUpdate(t, j, func(*File) {})                              // nothing: nothing written

	lines := logLines(t, j)
	if len(lines) != 4 {
		t.Fatalf("the log has %d lines, want the head and 3:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	if !strings.Contains(lines[1], `"key":"k1"`) || strings.Contains(lines[1], `"key":"k0"`) || strings.Contains(lines[1], `"key":"k2"`) {
		t.Errorf("a change of k1 wrote %s", lines[1])
	}
	if want := `{"drop":["k0"]}`; lines[3] != want {
		t.Errorf("a drop wrote %s, want %s", lines[3], want)
	}
	after, _ := os.Stat(j.Path)
	if now, _ := os.ReadFile(j.Path); !os.SameFile(before, after) || !bytes.Equal(now, file) {
		t.Error("an update that the log took rewrote the journal file")
	}
	want := []string{"k1:5", "k2:0", "k3:0"}
	for _, r := range []*Journal{j, New(j.Path, false)} {
		if diff := cmp.Diff(want, keysOf(t, r)); diff != "" {
			t.Errorf("read (-want +got):\n%s", diff)
		}
	}
	// Another writer goes on from the log, and this one from its.
	mustUpdate(t, another(j), func(f *File) { f.Find("k2").RunsFinished = 7 })
	mustUpdate(t, j, func(f *File) { f.Find("k3").RunsFinished++ })
	if diff := cmp.Diff([]string{"k1:5", "k2:7", "k3:1"}, keysOf(t, j)); diff != "" {
		t.Errorf("after two writers (-want +got):\n%s", diff)
	}
}

// TestLogWrittenWhole: past maxLog the journal is written whole, naming a
// new log, which starts empty; nothing is lost on the way.
func TestLogWrittenWhole(t *testing.T) {
	j := newAt(t, t0)
	mustUpdate(t, j, func(f *File) { f.Upsert(rec("a", true, t0)); f.Upsert(rec("b", true, t0)) })
	gen := func() uint64 {
		b, _ := os.ReadFile(j.Path)
		g, ok := headGen(b)
		if !ok {
			t.Fatalf("the file is not laid out: %.80s", b)
		}
		return g
	}
	first := gen()
	n := 0
	for ; gen() == first; n++ {
		if n > maxLog {
			t.Fatal("never written whole")
		}
		mustUpdate(t, j, func(f *File) { f.Find("a").Argv = []string{strings.Repeat("x", 500), fmt.Sprint(n)} })
	}
	if gen() != first+1 {
		t.Errorf("log %d after %d", gen(), first)
	}
	if lines := logLines(t, j); len(lines) != 1 || lines[0] != fmt.Sprintf(`{"log":%d}`, first+1) {
		t.Errorf("the new log: %q", lines)
	}
	if n < maxLog/1000 {
		t.Errorf("written whole after %d updates", n)
	}
	f, err := New(j.Path, false).Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != 2 || f.Records[0].Argv[1] != fmt.Sprint(n-1) {
		t.Errorf("after it: %+v", f.Records)
	}
}

// TestLogCutShort: a line cut short (a crash, a full disk) ends the log:
// readers stop before it, and the next writer writes over it. A whole line
// that is no update is passed over.
func TestLogCutShort(t *testing.T) {
	j := newAt(t, t0)
	mustUpdate(t, j, func(f *File) { f.Upsert(rec("a", true, t0)) })
	mustUpdate(t, j, func(f *File) { f.Find("a").RunsFinished = 1 })
	appendTo := func(s string) {
		t.Helper()
		lf, err := os.OpenFile(j.LogPath(), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer lf.Close()
		if _, err := lf.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	appendTo(`{"put":5}` + "\n" + `{"put":[{"key":""}]}` + "\n" + `{"drop":["b"]}` + "\n")
	appendTo(`{"put":[{"key":"a","runs_finished":9`)
	if diff := cmp.Diff([]string{"a:1"}, keysOf(t, New(j.Path, false))); diff != "" {
		t.Errorf("read (-want +got):\n%s", diff)
	}
	mustUpdate(t, another(j), func(f *File) { f.Upsert(rec("c", true, t0)) })
	if diff := cmp.Diff([]string{"a:1", "c:0"}, keysOf(t, j)); diff != "" {
		t.Errorf("read after a write (-want +got):\n%s", diff)
	}
	if b, _ := os.ReadFile(j.LogPath()); bytes.Contains(b, []byte(`:9`)) {
		t.Errorf("the cut line is still there:\n%s", b)
	}
	// Garbage that is not JSON ends the log too, whatever follows.
	appendTo("\x00\x00\x00\n")
	appendTo(`{"drop":["a"]}` + "\n")
	if diff := cmp.Diff([]string{"a:1", "c:0"}, keysOf(t, j)); diff != "" {
		t.Errorf("read past garbage (-want +got):\n%s", diff)
	}
}

// TestLogOfAnotherFile: the log applies only to the file that names it. A
// crash between the file written whole and its new log leaves the old log
// beside the new file, which holds it already: it is passed over. A log of
// a later file (read between a writer's two renames) is passed over too,
// after reading again.
func TestLogOfAnotherFile(t *testing.T) {
	j := newAt(t, t0)
	mustUpdate(t, j, func(f *File) { f.Upsert(rec("a", true, t0)) })
	mustUpdate(t, j, func(f *File) { f.Find("a").RunsFinished = 1 })
	oldLog, _ := os.ReadFile(j.LogPath())
	oldFile, _ := os.ReadFile(j.Path)
	g, _ := headGen(oldFile)

	// The file written whole, naming the next log, with the change it
	// made; the old log, naming the old file, still there.
	var lines []*line
	for _, r := range []Record{func() Record { r := rec("a", true, t0); r.RunsFinished = 3; return r }()} {
		lines = append(lines, &line{text: mustJSON(t, r), rec: r})
	}
	if err := os.WriteFile(j.Path, encodeFile(SchemaVersion, g+1, lines, ""), 0o600); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a:3"}, keysOf(t, New(j.Path, false))); diff != "" {
		t.Errorf("the old log was applied (-want +got):\n%s", diff)
	}
	mustUpdate(t, another(j), func(f *File) { f.Find("a").RunsFinished++ })
	if diff := cmp.Diff([]string{"a:4"}, keysOf(t, j)); diff != "" {
		t.Errorf("after a write (-want +got):\n%s", diff)
	}
	if got := logLines(t, j)[0]; got == strings.SplitN(string(oldLog), "\n", 2)[0] {
		t.Errorf("the old log was kept: %s", got)
	}

	// A log newer than the file read.
	if err := os.WriteFile(j.Path, oldFile, 0o600); err != nil {
		t.Fatal(err)
	}
	newer := fmt.Sprintf(`{"log":%d}`+"\n"+`{"drop":["a"]}`+"\n", g+5)
	if err := os.WriteFile(j.LogPath(), []byte(newer), 0o600); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a:0"}, keysOf(t, New(j.Path, false))); diff != "" {
		t.Errorf("a newer log was applied (-want +got):\n%s", diff)
	}
	if r, err := New(j.Path, false).LatestOf("claude", ""); r != nil || err != nil {
		t.Errorf("LatestOf of no id: %v %v", r, err)
	}
}

func mustJSON(t *testing.T, r Record) string {
	t.Helper()
	st := &state{}
	_, lines, _, _, _, err := st.entry(&File{Records: []Record{r}})
	if err != nil {
		t.Fatal(err)
	}
	return lines[0].text
}

// TestLogUpgrade: a journal an older kittymux wrote (version 1, no log)
// reads as it is, and its first update writes it whole as version 2, with
// a log.
func TestLogUpgrade(t *testing.T) {
	j := newAt(t, t0)
	if err := os.MkdirAll(strings.TrimSuffix(j.Path, "/agent-sessions.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	v1 := "{\"version\":1,\"records\":[\n" +
		`{"key":"a","agent":"claude","id":"x","dir":"/p","argv":["claude"],"first_seen":"2026-05-01T11:00:00Z","last_seen":"2026-05-01T11:00:00Z","state":"idle","state_since":"0001-01-01T00:00:00Z","runs_finished":2,"working_seconds":0,"open":false,"kitty_socket":"","window_id":0}` +
		"\n],\"restores\":[\n" + `{"at":"2026-05-01T11:00:00Z","agent":"claude","mode":"exact","outcome":"resumed","asked":true}` + "\n]}\n"
	if err := os.WriteFile(j.Path, []byte(v1), 0o600); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a:2"}, keysOf(t, j)); diff != "" {
		t.Errorf("read (-want +got):\n%s", diff)
	}
	mustUpdate(t, j, func(*File) {})
	b, _ := os.ReadFile(j.Path)
	if _, ok := headGen(b); !ok {
		t.Errorf("not written as version 2: %.60s", b)
	}
	f, err := j.Read()
	if err != nil || len(f.Records) != 1 || f.Records[0].ID != "x" || len(f.Restores) != 1 {
		t.Errorf("after: %+v %v", f, err)
	}
}

// TestLatestOfLog: the prompt's lookup, which reads only the lines naming
// the id, agrees with a full read when the log changed records of it: one
// added, one moved to another conversation, one dropped, one seen later,
// one that came to name it.
func TestLatestOfLog(t *testing.T) {
	const id = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	named := func(key string, at time.Duration) Record {
		r := rec(key, false, t0.Add(at))
		r.ID = id
		return r
	}
	for _, tc := range []struct {
		name    string
		change  func(f *File)
		wantKey string
	}{
		{"added", func(f *File) { f.Upsert(named("new", time.Hour)) }, "new"},
		{"moved away", func(f *File) { f.Find("late").ID = "other" }, "early"},
		{"all moved away", func(f *File) { f.Find("late").ID = "other"; f.Find("early").ID = "other" }, ""},
		{"dropped", func(f *File) { f.Records = f.Records[:1] }, "early"},
		{"seen later", func(f *File) { f.Find("early").LastSeen = t0.Add(2 * time.Hour) }, "early"},
		{"came to name it", func(f *File) { r := f.Find("plain"); r.ID, r.LastSeen = id, t0.Add(3*time.Hour) }, "plain"},
		{"a tie", func(f *File) { f.Find("early").LastSeen = t0.Add(time.Minute) }, "late"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := newAt(t, t0)
			mustUpdate(t, j, func(f *File) {
				f.Upsert(named("early", 0))
				f.Upsert(named("late", time.Minute))
				f.Upsert(rec("plain", false, t0))
			})
			mustUpdate(t, j, tc.change)
			if len(logLines(t, j)) < 2 {
				t.Fatal("the change is not in the log")
			}
			got, err := New(j.Path, false).LatestOf("claude", id)
			if err != nil {
				t.Fatal(err)
			}
			f, _ := j.Read()
			want := f.Latest("claude", id)
			if !cmp.Equal(want, got, cmpopts.EquateEmpty()) {
				t.Fatalf("LatestOf = %+v, a full read's %+v", got, want)
			}
			if key := ""; got != nil {
				if key = got.Key; key != tc.wantKey {
					t.Errorf("LatestOf is %q, want %q", key, tc.wantKey)
				}
			} else if tc.wantKey != "" {
				t.Errorf("LatestOf is none, want %q", tc.wantKey)
			}
		})
	}
}

// TestMayHaveLeftLog: an id among a record's previous ids only in the log
// is found.
func TestMayHaveLeftLog(t *testing.T) {
	j := newAt(t, t0)
	mustUpdate(t, j, func(f *File) { f.Upsert(rec("a", true, t0)) })
	if New(j.Path, false).MayHaveLeft("gone") {
		t.Fatal("before")
	}
	mustUpdate(t, j, func(f *File) { f.Find("a").PreviousIDs = []string{"gone"} })
	if !New(j.Path, false).MayHaveLeft("gone") {
		t.Error("an id left in the log is not found")
	}
}
