package ended

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/autosave"
	"github.com/kittymux/kittymux/pkg/published"
)

var t0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

func auto(key string, min int) Save {
	return Save{Name: autosave.Name(key, at(min)), Kitty: key, At: at(min)}
}

func quitSave(key string, min int) Save {
	return Save{Name: autosave.QuitName(key, at(min)), Kitty: key, At: at(min), Quit: true}
}

func byHand(name string, min int) Save { return Save{Name: name, At: at(min)} }

func aliveSet(keys ...string) Alive {
	return func(k string) bool {
		for _, x := range keys {
			if x == k {
				return true
			}
		}
		return false
	}
}

// Saves reads the kitty, time and quit from each name; a save made by name
// has no kitty, the old quit save's kitty is not known.
func TestSaves(t *testing.T) {
	in := []published.Info{
		{Name: autosave.Name("101", at(1)), Modified: at(9)},
		{Name: autosave.QuitName("101", at(2)), Modified: at(9)},
		{Name: "autosave-quit", Modified: at(3)},
		{Name: "work", Modified: at(4)},
		{Name: autosave.Name("s1a2b3c4", at(5)), Modified: at(9)},
	}
	got := Saves(in)
	want := []Save{
		{Name: in[0].Name, Kitty: "101", At: at(1)},
		{Name: in[1].Name, Kitty: "101", At: at(2), Quit: true},
		{Name: "autosave-quit", Kitty: "autosave-quit", At: at(3), Quit: true},
		{Name: "work", At: at(4)},
		{Name: in[4].Name, Kitty: "s1a2b3c4", At: at(5)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// What `restore last` picks, and what it says instead.
func TestLast(t *testing.T) {
	restored := File{Kitties: map[string]Mark{"101": {Restored: at(30), RestoredName: autosave.Name("101", at(10))}}}
	dismissed := File{Kitties: map[string]Mark{"101": {Dismissed: at(30)}}}
	for _, c := range []struct {
		name    string
		saves   []Save
		alive   []string
		self    string
		st      File
		pick    string // the save picked
		done    string // the kitty that ended last, when it was restored or dismissed
		others  []string
		running []string
	}{
		{name: "nothing saved"},
		{name: "only saves by name: the newest", saves: []Save{byHand("a", 1), byHand("b", 2)}, pick: "b"},
		{
			// The journey: the new kitty was autosaved after the
			// crash; last is the crashed kitty's newest save.
			name:  "crash, then a new kitty saved: the crashed one",
			saves: []Save{auto("101", 1), auto("101", 10), auto("202", 20), byHand("work", 25)},
			alive: []string{"202"}, self: "202",
			pick: autosave.Name("101", at(10)), running: []string{"202"},
		},
		{
			name:  "run outside kitty: still never a running kitty",
			saves: []Save{auto("101", 10), auto("202", 20)},
			alive: []string{"202"},
			pick:  autosave.Name("101", at(10)), running: []string{"202"},
		},
		{
			name:  "two kitties, one killed: the killed one, whatever is newer",
			saves: []Save{auto("101", 10), auto("202", 5), auto("202", 30), auto("303", 40)},
			alive: []string{"101", "303"}, self: "303",
			pick: autosave.Name("202", at(30)), running: []string{"303", "101"},
		},
		{
			name:  "a quit save is its kitty's newest",
			saves: []Save{auto("101", 10), quitSave("101", 11)},
			pick:  autosave.QuitName("101", at(11)),
		},
		{
			name:  "every kitty runs: nothing",
			saves: []Save{auto("101", 10), auto("202", 20), byHand("work", 30)},
			alive: []string{"101", "202"}, self: "202", running: []string{"202", "101"},
		},
		{
			name:  "restored once: not last again, the older ended ones named",
			saves: []Save{auto("101", 10), auto("202", 5), auto("303", 1), auto("404", 50)},
			alive: []string{"404"}, self: "404",
			st:   File{Kitties: map[string]Mark{"101": restored.Kitties["101"], "303": {Restored: at(20)}}},
			done: "101", others: []string{"202"}, running: []string{"404"},
		},
		{
			name:  "dismissed: not last, but it may still be restored by name",
			saves: []Save{auto("101", 10), auto("202", 5)},
			st:    dismissed,
			done:  "101", others: []string{"202"},
		},
		{
			name:  "a running kitty's mark does not count: it runs",
			saves: []Save{auto("101", 10)},
			alive: []string{"101"}, st: restored, running: []string{"101"},
		},
		{
			name:  "the old quit save has no kitty: ended",
			saves: []Save{{Name: "autosave-quit", Kitty: "autosave-quit", At: at(10), Quit: true}, auto("202", 5)},
			alive: []string{"autosave-quit"},
			pick:  "autosave-quit", others: []string{"202"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			ks := Kitties(c.saves, aliveSet(c.alive...), c.self, c.st)
			got := Last(ks, c.saves)
			var pick, done string
			if got.Pick != nil {
				pick = got.Pick.Name
			}
			if got.Done != nil {
				done = got.Done.Key
			}
			keys := func(ks []Kitty) []string {
				var out []string
				for _, k := range ks {
					out = append(out, k.Key)
				}
				return out
			}
			if diff := cmp.Diff([]any{c.pick, c.done, c.others, c.running}, []any{pick, done, keys(got.Others), keys(got.Running)}); diff != "" {
				t.Errorf("pick, done, others, running (-want +got):\n%s", diff)
			}
		})
	}
}

// The state of each kitty, by its newest save.
func TestKittiesStates(t *testing.T) {
	saves := []Save{auto("101", 1), quitSave("202", 2), auto("303", 3), auto("404", 4), auto("505", 5), auto("606", 6)}
	st := File{Kitties: map[string]Mark{"303": {Restored: at(9)}, "404": {Dismissed: at(9)}, "505": {Restored: at(9)}}}
	ks := Kitties(saves, aliveSet("505"), "606", st)
	got := map[string]State{}
	quit := map[string]bool{}
	for _, k := range ks {
		got[k.Key] = k.State
		quit[k.Key] = k.Quit
	}
	want := map[string]State{"101": Ended, "202": Ended, "303": Restored, "404": Dismissed, "505": Running, "606": This}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !quit["202"] || quit["101"] {
		t.Errorf("quit: %v", quit)
	}
	if ks[0].Key != "606" || ks[len(ks)-1].Key != "101" {
		t.Errorf("not newest first: %v", ks)
	}
}

// TestKittiesQuitWins: the scanner may save a kitty while it goes, after
// its quit watcher saved it whole: the quit's save is the kitty's newest.
// A save long after is of a kitty that got the same pid.
func TestKittiesQuitWins(t *testing.T) {
	during := auto("101", 3)
	during.At = at(3).Add(5 * time.Second)
	for _, c := range []struct {
		name  string
		saves []Save
		want  string
	}{
		{"a save while it went", []Save{auto("101", 1), quitSave("101", 3), during}, quitSave("101", 3).Name},
		{"the quit's alone", []Save{auto("101", 1), quitSave("101", 3)}, quitSave("101", 3).Name},
		{"a later kitty with the pid", []Save{quitSave("101", 3), auto("101", 90)}, auto("101", 90).Name},
	} {
		t.Run(c.name, func(t *testing.T) {
			ks := Kitties(c.saves, aliveSet(), "", File{})
			if len(ks) != 1 || ks[0].Newest.Name != c.want || ks[0].Quit != strings.HasPrefix(c.want, autosave.QuitPrefix) {
				t.Errorf("kitties %+v, want the newest %s", ks, c.want)
			}
		})
	}
}

// What a kitty that starts is offered.
func TestOfferable(t *testing.T) {
	for _, c := range []struct {
		name  string
		saves []Save
		alive []string
		st    File
		want  string
	}{
		{name: "nothing ended", saves: []Save{auto("101", 1)}, alive: []string{"101"}},
		{name: "the newest that ended", saves: []Save{auto("101", 1), auto("202", 2), auto("303", 3)}, alive: []string{"303"}, want: "202"},
		{name: "offered once", saves: []Save{auto("101", 1), auto("202", 2)}, st: File{Kitties: map[string]Mark{"202": {Offered: at(5)}}}, want: "101"},
		{name: "put off: not again", saves: []Save{auto("202", 2)}, st: File{Kitties: map[string]Mark{"202": {Later: at(5)}}}},
		{name: "restored or dismissed: never", saves: []Save{auto("101", 1), auto("202", 2)},
			st: File{Kitties: map[string]Mark{"101": {Restored: at(5)}, "202": {Dismissed: at(5)}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := Offerable(Kitties(c.saves, aliveSet(c.alive...), "", c.st))
			got := ""
			if k != nil {
				got = k.Key
			}
			if got != c.want {
				t.Errorf("offered %q, want %q", got, c.want)
			}
		})
	}
}
