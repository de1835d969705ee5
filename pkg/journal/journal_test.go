package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/statefile"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func newAt(t *testing.T, now time.Time) *Journal {
	t.Helper()
	j := New(filepath.Join(t.TempDir(), "state", "agent-sessions.json"), false)
	j.Clock = clock.NewFake(now)
	return j
}

func rec(key string, open bool, lastSeen time.Time) Record {
	return Record{Key: key, Agent: "claude", Open: open, LastSeen: lastSeen, FirstSeen: lastSeen, State: agents.StateIdle}
}

func TestBound(t *testing.T) {
	many := func(n int, open bool, from time.Time) []Record {
		var out []Record
		for i := range n {
			out = append(out, rec(fmt.Sprintf("%v-%03d", open, i), open, from.Add(time.Duration(i)*time.Minute)))
		}
		return out
	}
	keys := func(rs []Record) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Key)
		}
		sort.Strings(out)
		return out
	}
	tests := []struct {
		name string
		in   []Record
		want []string
	}{
		{
			name: "older than 90 days go, open or closed",
			in: []Record{rec("old-closed", false, t0.Add(-91*24*time.Hour)), rec("old-open", true, t0.Add(-91*24*time.Hour)),
				rec("recent", false, t0.Add(-89*24*time.Hour))},
			want: []string{"recent"},
		},
		{
			name: "over 300: the oldest closed go first, open ones stay",
			in:   append(many(250, false, t0.Add(-time.Hour*24)), many(100, true, t0.Add(-time.Hour*48))...),
			want: keys(append(many(250, false, t0.Add(-time.Hour*24))[50:], many(100, true, t0)...)),
		},
		{
			name: "over 300 open: the least recently seen go",
			in:   many(310, true, t0.Add(-time.Hour*24)),
			want: keys(many(310, true, t0)[10:]),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &File{Version: SchemaVersion, Records: tt.in}
			Bound(f, t0)
			if diff := cmp.Diff(tt.want, keys(f.Records)); diff != "" {
				t.Errorf("kept (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUpdateFileMode: 0600 in a 0700 directory, whatever the umask.
func TestUpdateFileMode(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	j := newAt(t, t0)
	if _, err := j.Update(func(f *File) error { f.Upsert(rec("a", true, t0)); return nil }); err != nil {
		t.Fatal(err)
	}
	got := map[string]os.FileMode{}
	for _, p := range []string{filepath.Dir(j.Path), j.Path, j.LockPath()} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		got[filepath.Base(p)] = fi.Mode().Perm()
	}
	want := map[string]os.FileMode{"state": 0o700, "agent-sessions.json": 0o600, "agent-sessions.json.lock": 0o600}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("modes (-want +got):\n%s", diff)
	}
	raw, _ := os.ReadFile(j.Path)
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil || v["version"] != float64(SchemaVersion) {
		t.Errorf("file %s: version %v, %v", raw, v["version"], err)
	}
}

func TestUpdateCorruptMovedAside(t *testing.T) {
	j := newAt(t, t0)
	if err := os.MkdirAll(filepath.Dir(j.Path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(j.Path, []byte(`{"version": 1, "records": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Read(); !errors.As(err, new(*CorruptError)) {
		t.Fatalf("Read of a corrupt journal: %v", err)
	}
	res, err := j.Update(func(f *File) error {
		if len(f.Records) != 0 {
			t.Errorf("a new journal starts empty: %+v", f.Records)
		}
		f.Upsert(rec("a", true, t0))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := j.CorruptCopies(); len(got) != 1 || got[0] != res.MovedAside {
		t.Errorf("corrupt copies %v, moved aside %q", got, res.MovedAside)
	}
	if kept, _ := os.ReadFile(res.MovedAside); string(kept) != `{"version": 1, "records": [` {
		t.Errorf("the corrupt journal was not kept as it was: %q", kept)
	}
	f, err := j.Read()
	if err != nil || len(f.Records) != 1 {
		t.Errorf("new journal: %+v %v", f, err)
	}
}

func TestUpdateNewerVersionLeftAlone(t *testing.T) {
	j := newAt(t, t0)
	_ = os.MkdirAll(filepath.Dir(j.Path), 0o700)
	newer := `{"version": 99, "records": [], "future": true}`
	_ = os.WriteFile(j.Path, []byte(newer), 0o600)
	_, err := j.Update(func(f *File) error { return nil })
	if !errors.Is(err, ErrNewer) {
		t.Errorf("err %v, want ErrNewer", err)
	}
	if b, _ := os.ReadFile(j.Path); string(b) != newer {
		t.Errorf("a newer journal was rewritten: %s", b)
	}
}

func TestOff(t *testing.T) {
	dir := t.TempDir()
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "KITTYMUX_JOURNAL" {
				return v
			}
			return ""
		}
	}
	got := map[string]bool{"env 0": IsOff(dir, env("0")), "env 1": IsOff(dir, env("1")), "unset": IsOff(dir, env(""))}
	_ = os.WriteFile(filepath.Join(dir, "journal-off"), nil, 0o600)
	got["journal-off file"] = IsOff(dir, env(""))
	want := map[string]bool{"env 0": true, "env 1": false, "unset": false, "journal-off file": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("IsOff (-want +got):\n%s", diff)
	}
	j := New(filepath.Join(dir, "sub", "agent-sessions.json"), true)
	if _, err := j.Update(func(*File) error { t.Error("fn ran with the journal off"); return nil }); !errors.Is(err, ErrOff) {
		t.Errorf("Update when off: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(j.Path)); err == nil {
		t.Errorf("the journal off still created %s", filepath.Dir(j.Path))
	}
}

func TestLatest(t *testing.T) {
	f := &File{Records: []Record{
		{Key: "1", Agent: "claude", ID: "x", LastSeen: t0},
		{Key: "2", Agent: "claude", ID: "x", LastSeen: t0.Add(time.Minute)},
		{Key: "3", Agent: "codex", ID: "x", LastSeen: t0.Add(time.Hour)},
		{Key: "4", Agent: "claude", ID: "", LastSeen: t0.Add(time.Hour)},
	}}
	got := map[string]string{}
	for _, q := range [][2]string{{"claude", "x"}, {"codex", "x"}, {"claude", ""}, {"claude", "y"}} {
		if r := f.Latest(q[0], q[1]); r != nil {
			got[q[0]+"/"+q[1]] = r.Key
		}
	}
	if diff := cmp.Diff(map[string]string{"claude/x": "2", "codex/x": "3"}, got); diff != "" {
		t.Errorf("Latest (-want +got):\n%s", diff)
	}
}

// The stress test's writer processes are this test binary, run again with
// these variables.
const (
	envWriter = "KITTYMUX_JOURNAL_STRESS_WRITER"
	envPath   = "KITTYMUX_JOURNAL_STRESS_PATH"
	writers   = 8
	updates   = 200
)

// TestMain turns the binary into a stress writer when asked: each update
// counts on its own record and on one shared by all writers.
func TestMain(m *testing.M) {
	if n, err := strconv.Atoi(os.Getenv(envBenchUpdates)); err == nil {
		benchWriter(n)
	}
	if os.Getenv(envKilled) != "" {
		killedWriter()
	}
	if w := os.Getenv(envWriter); w != "" {
		j := New(os.Getenv(envPath), false)
		for range updates {
			_, err := j.Update(func(f *File) error {
				for _, key := range []string{"writer-" + w, "shared"} {
					r := f.Find(key)
					if r == nil {
						f.Upsert(Record{Key: key, Agent: "claude", Open: true, LastSeen: time.Now()})
						r = f.Find(key)
					}
					r.RunsFinished++
					r.LastSeen = time.Now()
				}
				return nil
			})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestStressWriters: 8 processes update the journal 200 times each at once;
// no update is lost, and the file parses every time a reader looks.
func TestStressWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("stress test")
	}
	path := filepath.Join(t.TempDir(), "agent-sessions.json")
	var cmds []*exec.Cmd
	for w := range writers {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), envWriter+"="+strconv.Itoa(w), envPath+"="+path)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	var done atomic.Bool
	var reads, bad atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		j := New(path, false)
		for !done.Load() {
			if _, err := j.Read(); err != nil {
				bad.Add(1)
				t.Errorf("a reader saw a broken journal: %v", err)
			}
			reads.Add(1)
		}
	}()
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer: %v", err)
		}
	}
	done.Store(true)
	wg.Wait()

	f, err := New(path, false).Read()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range f.Records {
		got[r.Key] = r.RunsFinished
	}
	want := map[string]int{"shared": writers * updates}
	for w := range writers {
		want["writer-"+strconv.Itoa(w)] = updates
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	t.Logf("%d reads while writing, %d broken", reads.Load(), bad.Load())
}

// BenchmarkUpdate300Records8Writers: one update (lock, read, change one
// record, write, sync) of a 300-record journal with 8 writer processes at
// once (this test binary again, as TestStressWriters runs it), each with
// its share of the updates, back to back. It reports the p50 and p99
// latency of an update (p50-ms, p99-ms) and of the time each held the lock
// (held-p50-ms, held-p99-ms), and the writers' CPU time (user + system)
// per update (cpu-ms/op; their start included), which the machine's load
// moves less than the latencies: writers taking turns (as in use), and in
// flock's own order (as before the turns), one after the other in one run.
func BenchmarkUpdate300Records8Writers(b *testing.B) {
	b.Run("turns", func(b *testing.B) { benchUpdate(b, writers, false) })
	b.Run("flock", func(b *testing.B) { benchUpdate(b, writers, true) })
}

// BenchmarkUpdate300Records1Writer: the same with one writer, in this
// process, as in use (a scanner writes once per pass at most): the time an
// update holds the lock.
func BenchmarkUpdate300Records1Writer(b *testing.B) {
	b.Run("turns", func(b *testing.B) { benchUpdate(b, 1, false) })
	b.Run("flock", func(b *testing.B) { benchUpdate(b, 1, true) })
}

// The benchmark's writer processes: envBenchUpdates updates each, of the
// journal at envPath, in flock's order when envBenchUnordered is set; they
// start at a line on their standard input and print each update's latency
// and time holding the lock ("L ns", "H ns").
const (
	envBenchUpdates   = "KITTYMUX_JOURNAL_BENCH_UPDATES"
	envBenchUnordered = "KITTYMUX_JOURNAL_BENCH_UNORDERED"
)

// benchWriter is one writer process of benchUpdate.
func benchWriter(n int) {
	j := New(os.Getenv(envPath), false)
	j.unordered = os.Getenv(envBenchUnordered) != ""
	out := bufio.NewWriter(os.Stdout)
	j.held = func(d time.Duration) { fmt.Fprintf(out, "H %d\n", d) }
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for k := range n {
		i := (os.Getpid()*7 + k*31) % MaxRecords
		start := time.Now()
		if _, err := j.Update(func(f *File) error {
			r := &f.Records[i]
			r.LastSeen = time.Now()
			r.RunsFinished++
			return nil
		}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Fprintf(out, "L %d\n", time.Since(start))
	}
	if err := out.Flush(); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// fill300 writes the journal's bound of open records, as a working day
// leaves it.
func fill300(b *testing.B, j *Journal, now time.Time) {
	b.Helper()
	if _, err := j.Update(func(f *File) error {
		for i := range MaxRecords {
			f.Upsert(Record{Key: Key("unix:/tmp/kitty-1", 1, i, 1000+i), Agent: "claude", Open: true,
				ID: "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", Dir: "/home/user/code/api", TabTitle: "api work",
				Argv: []string{"claude", "--model", "opus"}, FirstSeen: now, LastSeen: now, State: agents.StateIdle, KittySocket: "unix:/tmp/kitty-1"})
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
}

func benchUpdate(b *testing.B, nWriters int, unordered bool) {
	path := filepath.Join(b.TempDir(), "agent-sessions.json")
	j := New(path, false)
	j.unordered = unordered
	now := time.Now()
	fill300(b, j, now)
	var lat, held []time.Duration
	var cpu time.Duration
	if nWriters == 1 {
		j.held = func(d time.Duration) { held = append(held, d) }
		cpu0 := cpuTime(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			start := time.Now()
			if _, err := j.Update(func(f *File) error {
				r := &f.Records[i%MaxRecords]
				r.LastSeen = time.Now()
				r.RunsFinished++
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(start))
		}
		b.StopTimer()
		cpu = cpuTime(b) - cpu0
	} else {
		exe, err := os.Executable()
		if err != nil {
			b.Fatal(err)
		}
		type proc struct {
			cmd   *exec.Cmd
			start io.WriteCloser
			out   bytes.Buffer
			errs  bytes.Buffer
		}
		procs := make([]*proc, nWriters)
		for w := range procs {
			n := b.N / nWriters
			if w < b.N%nWriters {
				n++
			}
			p := &proc{cmd: exec.Command(exe, "-test.run=^$")}
			p.cmd.Env = append(os.Environ(), envPath+"="+path, envBenchUpdates+"="+strconv.Itoa(n))
			if unordered {
				p.cmd.Env = append(p.cmd.Env, envBenchUnordered+"=1")
			}
			p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.errs
			if p.start, err = p.cmd.StdinPipe(); err != nil {
				b.Fatal(err)
			}
			if err := p.cmd.Start(); err != nil {
				b.Fatal(err)
			}
			procs[w] = p
		}
		b.ResetTimer()
		for _, p := range procs {
			p.start.Write([]byte("go\n"))
			p.start.Close()
		}
		for _, p := range procs {
			if err := p.cmd.Wait(); err != nil {
				b.Fatalf("writer: %v\n%s", err, p.errs.Bytes())
			}
		}
		b.StopTimer()
		for _, p := range procs {
			cpu += p.cmd.ProcessState.UserTime() + p.cmd.ProcessState.SystemTime()
			for l := range strings.Lines(p.out.String()) {
				var kind string
				var d time.Duration
				if _, err := fmt.Sscanf(l, "%s %d", &kind, &d); err != nil {
					b.Fatalf("writer said %q", l)
				}
				if kind == "L" {
					lat = append(lat, d)
				} else {
					held = append(held, d)
				}
			}
		}
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{{"", lat}, {"held-", held}} {
		sort.Slice(m.d, func(i, j int) bool { return m.d[i] < m.d[j] })
		if len(m.d) > 0 {
			b.ReportMetric(float64(m.d[len(m.d)/2].Microseconds())/1000, m.name+"p50-ms")
			b.ReportMetric(float64(m.d[len(m.d)*99/100].Microseconds())/1000, m.name+"p99-ms")
		}
	}
}

// TestLatestOf: the prompt's lookup reads only the lines naming the id and
// agrees with a full decode, also for a file laid out differently.
func TestLatestOf(t *testing.T) {
	j := newAt(t, t0)
	const id = "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73"
	_, err := j.Update(func(f *File) error {
		f.Upsert(Record{Key: "1", Agent: "claude", ID: id, LastSeen: t0, RunsFinished: 1})
		f.Upsert(Record{Key: "2", Agent: "claude", ID: id, LastSeen: t0.Add(time.Minute), RunsFinished: 2})
		// The id in another record's argv is no record of it.
		f.Upsert(Record{Key: "3", Agent: "codex", Argv: []string{"codex", id}, LastSeen: t0.Add(time.Hour)})
		f.Upsert(Record{Key: "4", Agent: "claude", ID: "other", LastSeen: t0.Add(time.Hour)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lookup := func() map[string]string {
		got := map[string]string{}
		for _, q := range [][2]string{{"claude", id}, {"codex", id}, {"claude", "nope"}, {"claude", ""}} {
			r, err := j.LatestOf(q[0], q[1])
			if err != nil {
				t.Fatal(err)
			}
			if r != nil {
				got[q[0]+"/"+q[1]] = r.Key
			}
		}
		return got
	}
	want := map[string]string{"claude/" + id: "2"}
	if diff := cmp.Diff(want, lookup()); diff != "" {
		t.Errorf("line by line (-want +got):\n%s", diff)
	}
	f, _ := j.Read()
	indented, _ := json.MarshalIndent(f, "", "  ")
	if err := os.WriteFile(j.Path, indented, 0o600); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, lookup()); diff != "" {
		t.Errorf("indented file (-want +got):\n%s", diff)
	}
	// Another writer's change (a new file renamed over the old one): the
	// bytes read before are not taken for the file.
	other := New(j.Path, false)
	other.Clock = j.Clock
	if _, err := other.Update(func(f *File) error {
		f.Upsert(Record{Key: "5", Agent: "claude", ID: id, LastSeen: t0.Add(2 * time.Minute), RunsFinished: 3})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want = map[string]string{"claude/" + id: "5"}
	if diff := cmp.Diff(want, lookup()); diff != "" {
		t.Errorf("after another writer (-want +got):\n%s", diff)
	}
}

// BenchmarkLatestOf300: the prompt's read of one conversation's record from
// a full journal.
func BenchmarkLatestOf300(b *testing.B) {
	// "file": the journal just written whole; "log": with 100 updates in
	// its log (45 KB), one of them to the record looked up.
	for _, logged := range []int{0, 100} {
		name := map[int]string{0: "file", 100: "log"}[logged]
		b.Run(name, func(b *testing.B) {
			j := New(filepath.Join(b.TempDir(), "agent-sessions.json"), false)
			now := time.Now()
			_, err := j.Update(func(f *File) error {
				for i := range MaxRecords {
					f.Upsert(Record{Key: Key("unix:/tmp/kitty-1", 1, i, 1000+i), Agent: "claude", Open: i%2 == 0,
						ID: fmt.Sprintf("4f9e2a51-3c1d-4b7a-9e0f-%012d", i), Dir: "/home/user/code/api", TabTitle: "api work",
						Argv: []string{"claude", "--model", "opus"}, FirstSeen: now, LastSeen: now, State: agents.StateIdle})
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			for k := range logged {
				if _, err := j.Update(func(f *File) error {
					r := &f.Records[(k*37+150)%MaxRecords]
					r.LastSeen = r.LastSeen.Add(time.Second)
					r.RunsFinished++
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
			if fi, err := os.Stat(j.LogPath()); err != nil || logged > 0 && fi.Size() < 40<<10 {
				b.Fatalf("the log: %v %v", fi, err)
			}
			for b.Loop() {
				if r, err := j.LatestOf("claude", "4f9e2a51-3c1d-4b7a-9e0f-000000000150"); err != nil || r == nil {
					b.Fatal(r, err)
				}
			}
		})
	}
}

// TestUpdateUnchangedNotWritten: an update that leaves every record as it
// was writes nothing (the file keeps its inode); one that changes a record
// is seen by another Journal of the same file, whatever either has cached.
func TestUpdateUnchangedNotWritten(t *testing.T) {
	j := newAt(t, t0)
	other := New(j.Path, false)
	other.Clock = j.Clock
	up := func(j *Journal, fn func(*File)) {
		t.Helper()
		if _, err := j.Update(func(f *File) error { fn(f); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	up(j, func(f *File) { f.Upsert(rec("a", true, t0)); f.Upsert(rec("b", true, t0)) })
	inode := func() uint64 {
		fi, err := os.Stat(j.Path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Sys().(*syscall.Stat_t).Ino
	}
	before := inode()
	up(j, func(f *File) { f.Upsert(rec("a", true, t0)) })
	up(other, func(*File) {})
	if inode() != before {
		t.Errorf("an update that changed nothing rewrote the journal")
	}
	up(other, func(f *File) { f.Find("a").RunsFinished = 3 })
	up(j, func(f *File) { f.Find("b").RunsFinished = 4 })
	up(other, func(f *File) { f.Find("a").Argv = append(f.Find("a").Argv, "--x") })
	got, err := j.Read()
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{rec("a", true, t0), rec("b", true, t0)}
	want[0].RunsFinished, want[0].Argv, want[1].RunsFinished = 3, []string{"--x"}, 4
	if diff := cmp.Diff(want, got.Records); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// TestRecordEqual: equal sees a change of every field, so no change is
// left unwritten when Record grows a field.
func TestRecordEqual(t *testing.T) {
	base := rec("a", true, t0)
	v := reflect.ValueOf(&base).Elem()
	for i := range v.NumField() {
		changed := base.clone()
		f := reflect.ValueOf(&changed).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "x")
		case reflect.Int:
			f.SetInt(f.Int() + 1)
		case reflect.Float64:
			f.SetFloat(f.Float() + 1)
		case reflect.Bool:
			f.SetBool(!f.Bool())
		case reflect.Slice:
			f.Set(reflect.Append(f, reflect.ValueOf("x")))
		case reflect.Pointer:
			tm := t0
			f.Set(reflect.ValueOf(&tm))
		case reflect.Struct:
			f.Set(reflect.ValueOf(t0.Add(time.Second)))
		default:
			t.Fatalf("field %s: kind %s not covered by this test", v.Type().Field(i).Name, f.Kind())
		}
		if base.equal(changed) {
			t.Errorf("a change of %s is not seen", v.Type().Field(i).Name)
		}
	}
	if !base.equal(base.clone()) {
		t.Errorf("a record differs from its clone")
	}
}

// TestUpdateSymlinkedDirRefused: the journal is a state file: a state
// directory that is a link is refused, nothing written through it.
func TestUpdateSymlinkedDirRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "state")); err != nil {
		t.Fatal(err)
	}
	j := New(filepath.Join(dir, "state", "agent-sessions.json"), false)
	_, err := j.Update(func(f *File) error { f.Upsert(rec("a", true, t0)); return nil })
	if !errors.Is(err, statefile.ErrSymlink) {
		t.Errorf("err %v, want statefile.ErrSymlink", err)
	}
	if ents, _ := os.ReadDir(target); len(ents) != 0 {
		t.Errorf("written through the link: %v", ents)
	}
}

// TestMayHaveLeft: the prompt's quick look for a conversation some process
// left (its previous ids) before it decodes the journal: never a miss.
func TestMayHaveLeft(t *testing.T) {
	const left, kept, other = "0b7e9c2a-1d3f-4e5a-8b6c-7d8e9f0a1b2c", "3e8b5c17-0000-4000-8000-000000000000", "9d1c7e42-5b6a-4c3d-8e2f-1a0b9c8d7e6f"
	j := New(filepath.Join(t.TempDir(), "agent-sessions.json"), false)
	if j.MayHaveLeft(left) {
		t.Errorf("no journal: left")
	}
	now := time.Now()
	_, err := j.Update(func(f *File) error {
		f.Upsert(Record{Key: "a", Agent: "claude", ID: kept, PreviousIDs: []string{left}, FirstSeen: now, LastSeen: now})
		f.Upsert(Record{Key: "b", Agent: "claude", ID: other, FirstSeen: now, LastSeen: now})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{left: true, kept: false, other: false, "": false} {
		if got := j.MayHaveLeft(id); got != want {
			t.Errorf("MayHaveLeft(%q) = %v, want %v", id, got, want)
		}
	}
	f, _ := j.Read()
	indented, _ := json.MarshalIndent(f, "", "  ")
	if err := os.WriteFile(j.Path, indented, 0o600); err != nil {
		t.Fatal(err)
	}
	if !j.MayHaveLeft(left) {
		t.Errorf("an indented journal: a miss")
	}
}

// TestUpdateReadsWhatOthersWrote: three Journals of one file update it in
// turn, each through the lines it read or wrote before, while the others
// change records, add them, drop runs of them (longer than the lookahead
// too) and reorder them, past the journal's bound too. After every update
// the file reads as a model of the same changes says.
func TestUpdateReadsWhatOthersWrote(t *testing.T) {
	first := newAt(t, t0)
	js := []*Journal{first, New(first.Path, false), New(first.Path, false)}
	for _, j := range js[1:] {
		j.Clock = first.Clock
	}
	r := rand.New(rand.NewPCG(1, 2))
	var model []Record
	next := 0
	add := func(rs []Record) []Record {
		next++
		return append(rs, rec(fmt.Sprintf("k%04d", next), next%3 == 0, t0.Add(time.Duration(next)*time.Second)))
	}
	changes := []func(rs []Record) []Record{
		add,
		func(rs []Record) []Record { // past the bound
			for range MaxRecords / 4 {
				rs = add(rs)
			}
			return rs
		},
		func(rs []Record) []Record { // one field of one record
			if len(rs) > 0 {
				i := r.IntN(len(rs))
				rs[i].RunsFinished++
				rs[i].Argv = append(rs[i].Argv, fmt.Sprint(rs[i].RunsFinished))
			}
			return rs
		},
		func(rs []Record) []Record { // a run of records dropped
			if len(rs) == 0 {
				return rs
			}
			i := r.IntN(len(rs))
			return slices.Delete(rs, i, min(len(rs), i+1+r.IntN(2*lookahead)))
		},
		func(rs []Record) []Record { // a record moved to the end
			if len(rs) > 1 {
				i := r.IntN(len(rs))
				moved := rs[i]
				rs = append(slices.Delete(rs, i, i+1), moved)
			}
			return rs
		},
		func(rs []Record) []Record { slices.Reverse(rs); return rs },
		func(rs []Record) []Record { // many added
			for range lookahead + 2 {
				rs = add(rs)
			}
			return rs
		},
	}
	for round := range 100 {
		change := changes[r.IntN(len(changes))]
		if round < 20 {
			change = add
		}
		bounded := &File{Records: change(cloneRecords(model))}
		Bound(bounded, t0)
		model = bounded.Records
		want := cloneRecords(model)
		j := js[r.IntN(len(js))]
		if _, err := j.Update(func(f *File) error {
			f.Records = cloneRecords(want)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, j := range js {
			// An update that changes nothing reads through j's lines, and
			// must write nothing.
			if _, err := j.Update(func(f *File) error {
				if diff := cmp.Diff(want, f.Records, cmpopts.EquateEmpty()); diff != "" {
					t.Fatalf("round %d: an update read (-want +got):\n%s", round, diff)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := j.Read()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got.Records, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round %d: the file reads (-want +got):\n%s", round, diff)
		}
	}
}

func cloneRecords(rs []Record) []Record {
	out := make([]Record, len(rs))
	for i, r := range rs {
		out[i] = r.clone()
	}
	return out
}

// envKilled makes the test binary TestWritersKilled's writer.
const envKilled = "KITTYMUX_JOURNAL_KILLED_WRITER"

// killedWriter counts on one record, update after update, and says on its
// standard output each time an update has returned, until it is killed.
func killedWriter() {
	j := New(os.Getenv(envPath), false)
	for {
		if _, err := j.Update(func(f *File) error {
			r := f.Find("killed")
			if r == nil {
				f.Upsert(Record{Key: "killed", Agent: "claude", Open: true, LastSeen: time.Now()})
				r = f.Find("killed")
			}
			r.RunsFinished++
			r.LastSeen = time.Now()
			return nil
		}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Stdout.Write([]byte("1\n"))
	}
}

// TestWritersKilled: writers killed with SIGKILL at any point of an update
// (the new file made ahead of the lock, the lock held, the rename done and
// the sync not) leave a journal that reads whole, with every update that
// returned, and take nothing with them: the lock and the turn go with the
// process, and the next write removes the temp files they left.
func TestWritersKilled(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	j := newAt(t, time.Now())
	if _, err := j.Update(func(f *File) error { return nil }); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 3))
	returned, kills := 0, 0
	// 40 kills, and more on a machine so busy that the writers were killed
	// before they wrote: the test is about kills that cut updates.
	for kills < 40 || returned < 5 && kills < 400 {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), envKilled+"=1", envPath+"="+j.Path)
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(5000+r.IntN(30_000)) * time.Microsecond)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err == nil || stderr.Len() > 0 {
			t.Fatalf("writer: %v %s", err, stderr.Bytes())
		}
		kills++
		returned += strings.Count(out.String(), "\n")
		f, err := j.Read()
		if err != nil {
			t.Fatalf("after kill %d: %v", kills, err)
		}
		n := 0
		if rec := f.Find("killed"); rec != nil {
			n = rec.RunsFinished
		}
		// A killed writer may have written its last update without
		// saying so: one more at most.
		if n < returned || n > returned+1 {
			t.Fatalf("after kill %d: %d updates in the journal, %d returned", kills, n, returned)
		}
		returned = n
	}
	t.Logf("%d kills, %d updates", kills, returned)
	if returned == 0 {
		t.Fatalf("no writer wrote an update in %d kills", kills)
	}
	if _, err := j.Update(func(f *File) error { f.Find("killed").RunsFinished++; return nil }); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(filepath.Dir(j.Path))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left after the next write: %s", e.Name())
		}
	}
}

// BenchmarkUpdate300RecordsInTurn: the CPU work of one update when eight
// writers take turns, without their processes: eight Journals on one file
// in this goroutine, each updating in turn, so that each reads the seven
// changes made since its last and writes its own.
func BenchmarkUpdate300RecordsInTurn(b *testing.B) {
	path := filepath.Join(b.TempDir(), "agent-sessions.json")
	now := time.Now()
	js := make([]*Journal, writers)
	for w := range js {
		js[w] = New(path, false)
	}
	fill300(b, js[0], now)
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := js[i%writers].Update(func(f *File) error {
			r := &f.Records[(i*31)%MaxRecords]
			r.LastSeen = time.Now()
			r.RunsFinished++
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// cpuTime is this process's CPU time so far, user and system, its
// collector's included.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestUpdateGivesRecordsAgain: each update gives fn its records in the same
// array; a copy of a record fn took is the caller's, and a change fn made
// and then refused (an error) is in no later update.
func TestUpdateGivesRecordsAgain(t *testing.T) {
	j := newAt(t, t0)
	if _, err := j.Update(func(f *File) error {
		f.Upsert(Record{Key: "a", Agent: "claude", ID: "one", Argv: []string{"claude"}, LastSeen: t0})
		f.Upsert(Record{Key: "b", Agent: "codex", ID: "two", LastSeen: t0})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var kept Record
	var first *Record
	if _, err := j.Update(func(f *File) error {
		first = &f.Records[0]
		kept = *f.Find("a")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Update(func(f *File) error {
		if &f.Records[0] != first {
			t.Error("the records came in a new array")
		}
		r := f.Find("a")
		r.ID, r.Argv[0] = "changed", "other"
		return errors.New("refused")
	}); err == nil {
		t.Fatal("fn's error was not returned")
	}
	if _, err := j.Update(func(f *File) error {
		if r := f.Find("a"); r.ID != "one" || r.Argv[0] != "claude" {
			t.Errorf("a refused change came back: %+v", *r)
		}
		f.Find("a").RunsFinished = 7
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if kept.ID != "one" || kept.Argv[0] != "claude" || kept.RunsFinished != 0 {
		t.Errorf("a copy taken by fn changed with later updates: %+v", kept)
	}
	f, err := New(j.Path, false).Read()
	if err != nil {
		t.Fatal(err)
	}
	if r := f.Find("a"); r == nil || r.ID != "one" || r.RunsFinished != 7 {
		t.Errorf("journal: %+v", f.Records)
	}
}
