package config

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/paths"
)

// Each section is read on its own: a mistake in one leaves the others read;
// no file is no setting and no error; a file past MaxSize is an error.
func TestRead(t *testing.T) {
	p := paths.Under(t.TempDir())
	if c, err := ReadAutosave(p); err != nil || c != (Autosave{}) {
		t.Errorf("no file: %+v, %v", c, err)
	}
	if err := os.MkdirAll(p.ConfigDir, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(p.Config(), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"autosave": {"keep": "three"}, "resume": {"interval": "3s"}, "offer": {"on_start": false}, "screen_history": true}`)
	if _, err := ReadAutosave(p); err == nil || !strings.Contains(err.Error(), p.Config()) {
		t.Errorf("a bad autosave.keep: %v", err)
	}
	if c, err := ReadResume(p); err != nil || c.Interval != "3s" {
		t.Errorf("resume: %+v, %v", c, err)
	}
	if c, err := ReadOffer(p); err != nil || c.OnStart == nil || *c.OnStart {
		t.Errorf("offer: %+v, %v", c, err)
	}
	if c, err := ReadKeys(p); err != nil || string(c["screen_history"]) != "true" {
		t.Errorf("keys: %v, %v", c, err)
	}
	write(`{"resume": {"interval": "` + strings.Repeat("9", MaxSize) + `"}}`)
	if _, err := ReadResume(p); err == nil {
		t.Error("a file past MaxSize was read")
	}
}

// Set keeps the other settings, and leaves a file that is not a JSON
// object as it is.
func TestSet(t *testing.T) {
	p := paths.Under(t.TempDir())
	if err := Set(p, "screen_history", json.RawMessage("true")); err != nil {
		t.Fatal(err)
	}
	if err := Set(p, "autosave", json.RawMessage(`{"keep": 3}`)); err != nil {
		t.Fatal(err)
	}
	if c, err := ReadKeys(p); err != nil || string(c["screen_history"]) != "true" {
		t.Errorf("after two Sets: %v, %v", c, err)
	}
	if c, err := ReadAutosave(p); err != nil || c.Keep != 3 {
		t.Errorf("after two Sets: %+v, %v", c, err)
	}
	if err := os.WriteFile(p.Config(), []byte("[1]"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Set(p, "screen_history", json.RawMessage("true")); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Errorf("a list: %v", err)
	}
	if b, _ := os.ReadFile(p.Config()); string(b) != "[1]" {
		t.Errorf("a list was rewritten: %s", b)
	}
}
