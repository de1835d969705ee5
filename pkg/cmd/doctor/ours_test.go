package doctor

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAutosaveKittiesOfAnotherKittymux: a kitty the scanner leaves to
// another kittymux is said to be so, not "not seen yet"; what the scanner
// reports, and a kitty too old to save, are said as before.
func TestAutosaveKittiesOfAnotherKittymux(t *testing.T) {
	kitties := []KittyReport{
		{Socket: "unix:/a", PID: 10, Version: "0.48.2"},
		{Socket: "unix:/b", PID: 20, Version: "0.48.2"},
		{Socket: "unix:/c", PID: 30, Version: "0.48.2"},
		{Socket: "unix:/d", PID: 40, Version: "0.26.5"},
	}
	ours := func(pid int) bool { return pid != 20 }
	got := autosaveKitties(kitties, map[string]string{"unix:/c": "saved 12:00"}, ours)
	want := []AutosaveKitty{
		{Socket: "unix:/a", Note: "not seen by the scanner yet"},
		{Socket: "unix:/b", Note: "another kittymux's: started with another HOME and kittymux state directory, so this scanner leaves it alone"},
		{Socket: "unix:/c", Note: "saved 12:00"},
		{Socket: "unix:/d", Note: "off: kitty 0.26.5 cannot save its layout (save_as_session needs 0.43.0)"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
