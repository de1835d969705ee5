// Package remote is kittymux for agents on other machines, reached from a
// kitty window over ssh (`kitten ssh HOST` or plain `ssh HOST`):
//
//   - on the host, the agent's hook records the session in the host's own
//     journal and tells the window, through the terminal, which agent and
//     conversation run there: a Hint (a user var), text from another
//     machine that never runs by itself;
//   - on the local machine, a save keeps the window's ssh command as
//     kittymux saw its process (SSH, from /proc) with the hint beside it;
//   - on restore, the prompt runs that ssh command with a remote command
//     kittymux builds (CheckCommand), and on the host `kittymux-resume
//     --remote-check` resumes the conversation only if the host's journal
//     holds it (package remote/host).
package remote

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Var is the user var a host's hook sets on the window it runs in.
const Var = "kittymux_remote"

// Hint is what a host's hook reports: the agent running there, its
// conversation, its directory on the host and the host's name. Any
// program in the window can print one: it is shown ("reported by HOST")
// and its id and directory are only ever passed, as arguments, to the
// host's kittymux, which checks them against its own journal.
type Hint struct {
	Agent string `json:"agent"`
	ID    string `json:"id"`
	Dir   string `json:"dir"`
	Host  string `json:"host"`
}

// ErrBadHint: a user var that is not a hint kittymux's hook writes.
var ErrBadHint = errors.New("not a remote agent hint")

var (
	wordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`) })
	idRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`) })
	hostRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.-]{0,252}$`) })
)

// Check reports why h is not a hint kittymux would act on: an agent that
// is a plain word, an id that is a plain token (never an option), a clean
// absolute directory without control characters, a host name of letters,
// digits, dots and dashes.
func (h Hint) Check() error {
	switch {
	case !wordRE().MatchString(h.Agent):
		return fmt.Errorf("%w: agent %q is not a plain word", ErrBadHint, h.Agent)
	case !idRE().MatchString(h.ID):
		return fmt.Errorf("%w: id %q is not a plain token", ErrBadHint, h.ID)
	case !filepath.IsAbs(h.Dir) || filepath.Clean(h.Dir) != h.Dir || hasControl(h.Dir):
		return fmt.Errorf("%w: directory %q is not a clean absolute path", ErrBadHint, h.Dir)
	case !hostRE().MatchString(h.Host):
		return fmt.Errorf("%w: host %q is not a host name", ErrBadHint, h.Host)
	}
	return nil
}

// hasControl: C0, DEL or C1 (U+0080–U+009F), as a restore record's words.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, unicode.IsControl)
}

// Encode is h as the user var's value.
func (h Hint) Encode() string {
	b, _ := json.Marshal(h)
	return string(b)
}

// ParseHint reads a user var's value; only a hint that passes Check is
// returned.
func ParseHint(s string) (Hint, error) {
	var h Hint
	if len(s) > 4096 {
		return h, fmt.Errorf("%w: too long", ErrBadHint)
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return Hint{}, fmt.Errorf("%w: %v", ErrBadHint, err)
	}
	if err := h.Check(); err != nil {
		return Hint{}, err
	}
	return h, nil
}

// OSC is the escape sequence that sets the hint on the window of the
// terminal it is written to (OSC 1337 SetUserVar, kitty ≥ 0.29): the value
// travels base64-encoded, so no byte of it ends the sequence.
func (h Hint) OSC() []byte {
	v := base64.StdEncoding.EncodeToString([]byte(h.Encode()))
	return []byte("\x1b]1337;SetUserVar=" + Var + "=" + v + "\x07")
}
