package offer

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/ended"
	"github.com/kittymux/kittymux/pkg/kitty"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// offerSample is a kitty that crashed 2 minutes after its last save with
// two agents in one tab, one agent's directory outside home and long.
func offerSample() ([]Para, time.Time) {
	now := time.Date(2026, 12, 2, 1, 53, 30, 0, time.UTC)
	k := ended.Kitty{Key: "15939", State: ended.Ended, Newest: ended.Save{Name: "autosave-15939-20261202T015118.639Z", At: now.Add(-2*time.Minute - 12*time.Second)}}
	sum := Summary{Windows: 3, Agents: 2, Tabs: []Tab{{Title: "api", Windows: 3, Agents: []Agent{
		{Agent: "claude", Mode: "exact", ID: "4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", Dir: "/home/u/code/api"},
		{Agent: "codex", Mode: "latest", Dir: "/srv/checkouts/a-rather-long-directory-name-of-a-monorepo/services/billing-gateway"},
	}}}}
	left := []LeftOut{{Agent: Agent{Agent: "gemini", Mode: "latest", Dir: "/home/u/notes"}, Closed: now.Add(-20 * time.Minute), Why: "window closed by hand"}}
	return OfferView(k, sum, left, now, "/home/u"), now
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it); got:\n%s", path, got)
	}
}

// TestOfferGolden: the offer at 60 and 120 columns, plain and with its keys
// bold, is testdata/offer-*.golden; it names what the session held and
// when it ended, shows home as ~, and never the save's file name.
func TestOfferGolden(t *testing.T) {
	ps, _ := offerSample()
	for _, width := range []int{60, 120} {
		plain := Render(ps, width, false)
		checkGolden(t, "offer-"+strconv.Itoa(width)+".golden", plain)
		if !strings.HasPrefix(plain, "2 agents in 1 tab, ended unexpectedly 2 minutes ago\n") ||
			strings.Contains(plain, "autosave-") || strings.Contains(plain, "/home/u") || !strings.Contains(plain, "~/code/api") {
			t.Errorf("at %d columns:\n%s", width, plain)
		}
		colored := Render(ps, width, true)
		checkGolden(t, "offer-"+strconv.Itoa(width)+"-bold.golden", colored)
		if !strings.Contains(colored, "\x1b[1mEnter\x1b[22m restore it here") || !strings.HasPrefix(colored, "\x1b[1m2 agents in 1 tab,") {
			t.Errorf("the keys are not bold:\n%q", colored)
		}
	}
}

// TestOfferHeadlineTabs: the headline counts the tabs that hold the
// agents, and says of how many where a tab holds none ("2 agents in 2
// tabs" read as one in each).
func TestOfferHeadlineTabs(t *testing.T) {
	now := time.Date(2026, 12, 2, 1, 53, 30, 0, time.UTC)
	k := ended.Kitty{Key: "1", State: ended.Ended, Newest: ended.Save{At: now.Add(-2 * time.Minute)}}
	claude := Agent{Agent: "claude", Mode: "latest", Dir: "/home/u/api"}
	for _, c := range []struct {
		tabs []Tab
		want string
	}{
		{[]Tab{{Windows: 2, Agents: []Agent{claude, claude}}, {Windows: 1}}, "2 agents in 1 of 2 tabs, "},
		{[]Tab{{Windows: 1, Agents: []Agent{claude}}, {Windows: 1, Agents: []Agent{claude}}}, "2 agents in 2 tabs, "},
		{[]Tab{{Windows: 1}, {Windows: 2}}, "3 windows in 2 tabs, "},
	} {
		sum := Summary{Tabs: c.tabs}
		for _, tab := range c.tabs {
			sum.Windows += tab.Windows
			sum.Agents += len(tab.Agents)
		}
		if got := Render(OfferView(k, sum, nil, now, "/home/u"), 120, false); !strings.HasPrefix(got, c.want) {
			t.Errorf("want %q, got:\n%s", c.want, got)
		}
	}
}

// TestOfferWrapsAtWords: at every width from 30 to 130 no line is wider
// than the window, and the lines hold the same words as the offer, none
// cut: wrapping happens only between words. (A word wider than a whole
// line is the exception: shortened with "…", never split across lines.)
func TestOfferWrapsAtWords(t *testing.T) {
	ps, _ := offerSample()
	want := strings.Fields(Render(ps, 0, false))
	for width := 30; width <= 130; width++ {
		out := Render(ps, width, false)
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if kitty.Cells(l) > width {
				t.Errorf("at %d columns a line is %d wide: %q", width, kitty.Cells(l), l)
			}
		}
		got := strings.Fields(out)
		if len(got) != len(want) {
			t.Fatalf("at %d columns %d words, want %d:\n%s", width, len(got), len(want), out)
		}
		for i := range got {
			if got[i] != want[i] && !(strings.HasPrefix(got[i], "…") && strings.HasSuffix(want[i], strings.TrimPrefix(got[i], "…")) && kitty.Cells(want[i]) > width-4) {
				t.Errorf("at %d columns word %d is %q, want %q:\n%s", width, i, got[i], want[i], out)
			}
		}
	}
}

// TestAgo: how long ago, in words.
func TestAgo(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{30 * time.Second: "just now", time.Minute: "1 minute ago",
		2*time.Minute + 50*time.Second: "2 minutes ago", 3 * time.Hour: "3 hours ago", 47 * time.Hour: "47 hours ago", 72 * time.Hour: "3 days ago"} {
		if got := Ago(now, now.Add(-d)); got != want {
			t.Errorf("Ago(%v) = %q, want %q", d, got, want)
		}
	}
}
