package autosave

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A step happens at a time after the start: the poll sees a layout, the
// caller asks whether a save is due (and starts one if so), a save
// finishes, or the kitty goes away. Each step writes one line of what the
// policy said; the test compares the whole transcript.
type step struct {
	at      time.Duration
	do      string // see | due | finish | gone
	key     string
	windows int
	err     error
}

func see(at time.Duration, key string, windows int) step {
	return step{at: at, do: "see", key: key, windows: windows}
}
func due(at time.Duration) step { return step{at: at, do: "due"} }
func finish(at time.Duration, windows int, err error) step {
	return step{at: at, do: "finish", windows: windows, err: err}
}
func gone(at time.Duration) step { return step{at: at, do: "gone"} }

func run(s Settings, steps []step) []string {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	p := NewPolicy(s)
	var out []string
	var started Layout
	for _, st := range steps {
		now := t0.Add(st.at)
		var line string
		switch st.do {
		case "see":
			line = fmt.Sprintf("%v see %s", st.at, st.key)
			if p.Observe(now, Layout{Key: st.key, Windows: st.windows}) {
				line += ": commit held save"
			}
		case "due":
			d := p.Due(now)
			line = fmt.Sprintf("%v due %v", st.at, d)
			if d {
				started = p.Started(now)
				line += " (save " + started.Key + ")"
			}
		case "finish":
			v, why := p.Finished(now, Outcome{Layout: started, Windows: st.windows, Err: st.err})
			line = fmt.Sprintf("%v %v", st.at, v)
			if why != "" {
				line += ": " + why
			}
		case "gone":
			line = fmt.Sprintf("%v gone, held save dropped %v", st.at, p.Gone())
		}
		out = append(out, line)
	}
	return out
}

func TestPolicy(t *testing.T) {
	s := Settings{Settle: 20 * time.Second, AtMostEvery: time.Minute, AtLeastEvery: 15 * time.Minute, Keep: 5}
	sec, min := time.Second, time.Minute
	// good saves layout a (3 windows) at 20 s: the start of most cases.
	good := []step{see(0, "a", 3), due(20 * sec), finish(21*sec, 3, nil)}
	with := func(more ...step) []step { return append(append([]step(nil), good...), more...) }
	never := errors.New("kitty did not answer")
	cases := []struct {
		name  string
		steps []step
		want  []string
		tail  bool // want is the end of the transcript
	}{
		{"settling: saved once the layout stayed 20 s", []step{
			see(0, "a", 3), due(19 * sec), see(10*sec, "b", 4), due(29 * sec), due(30 * sec)}, []string{
			"0s see a", "19s due false", "10s see b", "29s due false", "30s due true (save b)"}, false},
		{"the same layout seen again does not restart the wait", []step{
			see(0, "a", 3), see(10*sec, "a", 3), due(20 * sec)}, []string{
			"0s see a", "10s see a", "20s due true (save a)"}, false},
		{"nothing changed since the good save: no save, however long", with(
			see(30*sec, "a", 3), due(2*time.Hour)), []string{
			"0s see a", "20s due true (save a)", "21s keep", "30s see a", "2h0m0s due false"}, false},
		{"a change back to the saved layout needs no save", with(
			see(30*sec, "b", 4), see(40*sec, "a", 3), due(2*min)), []string{
			"0s see a", "20s due true (save a)", "21s keep", "30s see b", "40s see a", "2m0s due false"}, false},
		{"once a minute: a settled change waits for the minute since the last save", with(
			see(25*sec, "b", 4), due(45*sec), due(79*sec), due(80*sec)), []string{
			"0s see a", "20s due true (save a)", "21s keep", "25s see b", "45s due false", "1m19s due false",
			"1m20s due true (save b)"}, false},
		{"the 15-minute floor: a layout that never settles is saved anyway", func() []step {
			var st []step
			for i := 0; i <= 90; i++ { // a change every 10 s for 15 minutes
				st = append(st, see(time.Duration(i)*10*sec, fmt.Sprint("k", i), 3))
			}
			return append(st, due(899*sec), due(900*sec))
		}(), []string{
			"14m50s see k89", "15m0s see k90", "14m59s due false", "15m0s due true (save k90)"}, true},
		{"a change during a save waits from when it was seen", with(
			see(21*sec, "b", 4), due(41*sec), due(81*sec)), []string{
			"0s see a", "20s due true (save a)", "21s keep", "21s see b", "41s due false", "1m21s due true (save b)"}, false},
		{"failed: discarded, the good save stays, tried again after the minute", with(
			see(30*sec, "b", 4), due(81*sec), finish(82*sec, 0, never), due(100*sec), due(141*sec)), []string{
			"0s see a", "20s due true (save a)", "21s keep", "30s see b", "1m21s due true (save b)",
			"1m22s discard: the save failed: kitty did not answer", "1m40s due false", "2m21s due true (save b)"}, false},
		{"empty: discarded", with(
			see(30*sec, "b", 4), due(81*sec), finish(82*sec, 0, nil)), []string{
			"0s see a", "20s due true (save a)", "21s keep", "30s see b", "1m21s due true (save b)",
			"1m22s discard: the save holds no windows"}, false},
		{"closing: fewer windows held, dropped when the kitty goes away", with(
			see(30*sec, "b", 1), due(81*sec), finish(82*sec, 1, nil), due(3*min), gone(83*sec)), []string{
			"0s see a", "20s due true (save a)", "21s keep", "30s see b", "1m21s due true (save b)",
			"1m22s hold: 1 windows where the last good save has 3: kept once the kitty is seen still running",
			"3m0s due false", "1m23s gone, held save dropped true"}, false},
		{"windows closed by the user: fewer windows kept once the kitty is seen after the save", with(
			see(30*sec, "b", 1), due(81*sec), finish(82*sec, 1, nil), see(82*sec, "b", 1), see(84*sec, "b", 1),
			due(10*min), gone(11*min)), []string{
			"0s see a", "20s due true (save a)", "21s keep", "30s see b", "1m21s due true (save b)",
			"1m22s hold: 1 windows where the last good save has 3: kept once the kitty is seen still running",
			"1m22s see b", "1m24s see b: commit held save", "10m0s due false", "11m0s gone, held save dropped false"}, false},
		{"a held save whose kitty changed again is dropped, and the change saved later", with(
			see(30*sec, "b", 1), due(81*sec), finish(82*sec, 1, nil), see(84*sec, "c", 2), due(104*sec), due(141*sec)), []string{
			"0s see a", "20s due true (save a)", "21s keep", "30s see b", "1m21s due true (save b)",
			"1m22s hold: 1 windows where the last good save has 3: kept once the kitty is seen still running",
			"1m24s see c", "1m44s due false", "2m21s due true (save c)"}, false},
		{"no save while one runs", []step{
			see(0, "a", 3), due(20 * sec), see(30*sec, "b", 4), due(10 * min)}, []string{
			"0s see a", "20s due true (save a)", "30s see b", "10m0s due false"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := run(s, c.steps)
			if c.tail && len(got) > len(c.want) {
				got = got[len(got)-len(c.want):]
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPrune: the newest Keep saves of a kitty stay.
func TestPrune(t *testing.T) {
	names := []string{"t1", "t2", "t3", "t4", "t5", "t6", "t7"}
	cases := []struct {
		names []string
		keep  int
		want  []string
	}{
		{names, 5, []string{"t1", "t2"}},
		{names[:5], 5, nil},
		{names[:3], 5, nil},
		{names, 1, names[:6]},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, Prune(c.names, c.keep)); diff != "" {
			t.Errorf("Prune(%v, %d) (-want +got):\n%s", c.names, c.keep, diff)
		}
	}
}

func TestSettingsDefaults(t *testing.T) {
	if diff := cmp.Diff(Defaults, NewPolicy(Settings{}).S); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
