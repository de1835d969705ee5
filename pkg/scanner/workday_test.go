//go:build linux

package scanner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/journal"
	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/live"
	"github.com/kittymux/kittymux/pkg/scanner"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// A working day: 4 kitties of 30 windows, a third of them agents, polled for
// 8 hours. Each agent is replaced (a new process, a new conversation) every
// agentLife, the replacements spread over the day, so the journal fills past
// its bound.
const (
	dayKitties = 4
	dayWindows = 30
	dayHours   = 8
	agentLife  = 10 * time.Minute
)

// dayKitty is a fake kitty (the real protocol on a unix socket) whose ls
// reply is built once per change: the fake's own encoding is not charged to
// the scanner.
type dayKitty struct {
	fake    *kittytest.Fake
	inst    kitty.Instance
	windows int
	reply   atomic.Pointer[[]byte]
}

var (
	dayFramePrefix = []byte("\x1bP@kitty-cmd")
	dayFrameSuffix = []byte("\x1b\\")
	okFrame        = dayFrame(map[string]any{"ok": true})
)

func dayFrame(v any) []byte {
	b, _ := json.Marshal(v)
	return append(append(append([]byte{}, dayFramePrefix...), b...), dayFrameSuffix...)
}

func startDayKitty(tb testing.TB, n, windows int) *dayKitty {
	k := &dayKitty{fake: kittytest.StartFake(tb, kittytest.FakeOptions{}), windows: windows}
	k.inst = kitty.Instance{Addr: k.fake.Addr, Socket: k.fake.Addr.String(), PID: 1000 + n, Version: k.fake.Version}
	k.fake.Hook(func(r kittytest.Request) ([]byte, bool) {
		if r.NoResponse {
			return nil, true
		}
		if r.Cmd == "ls" {
			return *k.reply.Load(), true
		}
		return okFrame, true
	})
	k.set(0)
	return k
}

// set makes the reply of generation gen: every third window an agent
// (claude resuming a conversation of its own), the others shells; an agent's
// pid and id change every 10 generations, staggered by window.
func (k *dayKitty) set(gen int) {
	tab := kitty.Tab{ID: 1, Title: "work", IsActive: true}
	for w := 1; w <= k.windows; w++ {
		win := kitty.Window{ID: w, Title: "zsh", PID: 10000 + w, Cwd: "/home/user/code"}
		if w%3 == 0 {
			g := (gen + w%10) / 10
			pid := 100000 + k.inst.PID*10000 + w*100 + g
			id := fmt.Sprintf("4f9e2a51-3c1d-4b7a-%04d-%012d", k.inst.PID, w*100000+g)
			win.Title = "✳ Claude Code"
			win.ForegroundProcesses = []kitty.Process{{PID: pid, Cmdline: []string{"claude", "--resume", id}, Cwd: win.Cwd}}
		} else {
			win.ForegroundProcesses = []kitty.Process{{PID: win.PID, Cmdline: []string{"-zsh"}, Cwd: win.Cwd}}
		}
		tab.Windows = append(tab.Windows, win)
	}
	doc, _ := json.Marshal([]kitty.OSWindow{{ID: 1, IsActive: true, IsFocused: true, Tabs: []kitty.Tab{tab}}})
	reply := dayFrame(map[string]any{"ok": true, "data": string(doc)})
	k.reply.Store(&reply)
}

type dayRig struct {
	clock   *clock.Fake
	kitties []*dayKitty
	journal *journal.Journal
	sc      *scanner.Scanner
}

func newDayRig(tb testing.TB, sizes ...int) *dayRig {
	set, err := agents.Load("")
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	r := &dayRig{clock: clock.NewFake(t0)}
	for i, n := range sizes {
		r.kitties = append(r.kitties, startDayKitty(tb, i+1, n))
	}
	r.journal = journal.New(filepath.Join(dir, "state", "agent-sessions.json"), false)
	r.journal.Clock = r.clock
	r.sc = scanner.New(scanner.Options{
		Set:     set,
		Journal: r.journal,
		Discover: func(context.Context) ([]kitty.Instance, error) {
			var ins []kitty.Instance
			for _, k := range r.kitties {
				ins = append(ins, k.inst)
			}
			return ins, nil
		},
		// An empty /proc: no agent's files are found, and no real process is read.
		Records: live.Records{ProcRoot: filepath.Join(dir, "proc"), Getenv: func(string) string { return "" }},
		Clock:   r.clock,
		Logf:    func(string, ...any) {},
		Jitter:  func() float64 { return 0 },
	})
	return r
}

func (r *dayRig) poll(tb testing.TB) scanner.Pass {
	p, err := r.sc.Poll(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	if p.JournalError != "" {
		tb.Fatal(p.JournalError)
	}
	for _, k := range p.Kitties {
		if !k.OK {
			tb.Fatalf("kitty %s: %s", k.Socket, k.Error)
		}
	}
	return p
}

// day polls every interval for the simulated day, replacing agents as it
// goes, and returns the polls made.
func (r *dayRig) day(tb testing.TB, interval time.Duration) int {
	polls := 0
	step := agentLife / 10 // agents of some windows are replaced this often
	next := step
	gen := 0
	for el := time.Duration(0); el < dayHours*time.Hour; el += interval {
		if el >= next {
			gen++
			next += step
			for _, k := range r.kitties {
				k.set(gen)
			}
		}
		r.poll(tb)
		polls++
		// The fakes keep each request they are sent (decoded, with its
		// payload): forgotten often, so that the memory measured is the
		// scanner's (kept 500 polls, they were 13 of 14 MB in use).
		if polls%10 == 0 {
			for _, k := range r.kitties {
				k.fake.ForgetRequests()
			}
		}
		r.clock.Advance(interval)
	}
	return polls
}

func (r *dayRig) checkJournal(tb testing.TB) *journal.File {
	f, err := r.journal.Read()
	if err != nil {
		tb.Fatal(err)
	}
	if len(f.Records) > journal.MaxRecords {
		tb.Errorf("journal holds %d records, over its bound of %d", len(f.Records), journal.MaxRecords)
	}
	open := 0
	for _, rec := range f.Records {
		if rec.Open {
			open++
		}
	}
	if want := dayKitties * dayWindows / 3; open != want {
		tb.Errorf("%d open records at the end of the day, want %d (one per agent window)", open, want)
	}
	return f
}

// TestWorkingDay: 4 kitties × 30 windows for 8 hours of a fake clock, polled
// once a simulated minute (the benchmark polls at the real interval): every
// agent is followed, the journal reaches its bound of 300 records and stays
// there, and an agent window has one open record at the end.
func TestWorkingDay(t *testing.T) {
	r := newDayRig(t, dayWindows, dayWindows, dayWindows, dayWindows)
	polls := r.day(t, time.Minute)
	f := r.checkJournal(t)
	if len(f.Records) != journal.MaxRecords {
		t.Errorf("journal holds %d records after a day of %d agents replaced every %v, want its bound %d",
			len(f.Records), dayKitties*dayWindows/3, agentLife, journal.MaxRecords)
	}
	t.Logf("%d polls, %d records", polls, len(f.Records))
}

// maxRSS is the most memory the test process has held resident, in bytes:
// the scanner's, the fake kitties' and the test's own.
func maxRSS() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	if runtime.GOOS == "darwin" {
		return ru.Maxrss // bytes there, kilobytes on Linux
	}
	return ru.Maxrss << 10
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWorkingDay runs the working day at the scanner's default interval
// (2 s: 14,400 polls of 4 kitties) on the fake clock and reports the
// process's CPU time (user + system: the scanner, and the fake kitties'
// socket service, whose ls replies are built beforehand) per poll and as a
// share of one core over the day's real interval, the heap in use after the
// day and the most the process held resident (the fake kitties' included
// in both), and the journal's records. Run it with
// -benchtime 1x.
func BenchmarkWorkingDay(b *testing.B) {
	for range b.N {
		r := newDayRig(b, dayWindows, dayWindows, dayWindows, dayWindows)
		runtime.GC()
		cpu0, wall0 := cpuTime(), time.Now()
		polls := r.day(b, scanner.DefaultInterval)
		cpu, wall := cpuTime()-cpu0, time.Since(wall0)
		f := r.checkJournal(b)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		perPoll := cpu / time.Duration(polls)
		b.ReportMetric(float64(polls), "polls")
		b.ReportMetric(float64(perPoll.Microseconds())/1000, "cpu-ms/poll")
		b.ReportMetric(float64(wall.Microseconds())/1000/float64(polls), "wall-ms/poll")
		b.ReportMetric(100*float64(perPoll)/float64(scanner.DefaultInterval), "cpu-%core")
		b.ReportMetric(float64(cpu.Milliseconds())/1000/dayHours, "cpu-s/hour")
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
		b.ReportMetric(float64(maxRSS())/(1<<20), "max-rss-MB")
		b.ReportMetric(float64(len(f.Records)), "records")
	}
}

// BenchmarkPollWindows times one poll (nothing changed, so no journal write)
// of a kitty of 30, 60 and 120 windows, a third of them agents, the three
// alternating in one run, and reports each and their ratios to 30: a poll
// linear in windows gives 2 and 4.
func BenchmarkPollWindows(b *testing.B) {
	sizes := []int{30, 60, 120}
	var rigs []*dayRig
	for _, n := range sizes {
		r := newDayRig(b, n)
		r.poll(b) // the first pass writes every record
		r.poll(b)
		rigs = append(rigs, r)
	}
	took := make([]time.Duration, len(sizes))
	b.ResetTimer()
	for range b.N {
		for i, r := range rigs {
			start := time.Now()
			p := r.poll(b)
			took[i] += time.Since(start)
			if p.Written {
				b.Fatal("a poll with nothing changed wrote the journal")
			}
		}
	}
	for i, n := range sizes {
		b.ReportMetric(float64(took[i].Nanoseconds())/float64(b.N), fmt.Sprintf("ns/poll-%d", n))
		if i > 0 {
			b.ReportMetric(float64(took[i])/float64(took[0]), fmt.Sprintf("%d/30", n))
		}
	}
}
