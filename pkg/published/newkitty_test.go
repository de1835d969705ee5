package published

import (
	"os"
	"testing"

	"github.com/kittymux/kittymux/pkg/paths"
)

// A save that starts with new_os_window is loaded by a new kitty from a
// copy without that line (else a stray OS window opens for the empty
// section before it); any other save is loaded as it is.
func TestForNewKitty(t *testing.T) {
	p := paths.Under(t.TempDir())
	tabs, err := Publish(p, "tabs", []byte("new_tab\nlaunch\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ForNewKitty(p, tabs); err != nil || got != tabs {
		t.Errorf("a save of tabs loads %q (%v), want itself", got, err)
	}
	one := "\nnew_os_window\nnew_tab\nlaunch\n"
	path, err := Publish(p, "one", []byte(one))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ForNewKitty(p, path)
	if err != nil || got == path {
		t.Fatalf("a save of one OS window loads %q (%v)", got, err)
	}
	if b, _ := os.ReadFile(got); string(b) != "\nnew_tab\nlaunch\n" {
		t.Errorf("copy for the new kitty: %q", b)
	}
	if b, _ := os.ReadFile(path); string(b) != one {
		t.Errorf("the published file changed: %q", b)
	}
}
