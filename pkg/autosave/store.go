package autosave

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/published"
	"github.com/kittymux/kittymux/pkg/rewrite"
	"github.com/kittymux/kittymux/pkg/save"
)

// stampLayout names a save's time in its name: fixed width, so names sort
// as times do, and with milliseconds, so short test settings never reuse one.
const stampLayout = "20060102T150405.000Z"

// KittyKey names one kitty in its saves' names: its pid, which tells two
// runs of kitty on one socket apart, or where the pid is not known a short
// hash of the socket.
func KittyKey(in kitty.Instance) string {
	if in.PID > 0 {
		return strconv.Itoa(in.PID)
	}
	h := sha256.Sum256([]byte(in.Addr.String()))
	return "s" + hex.EncodeToString(h[:4])
}

// Name is the session name of kitty key's save at t.
func Name(key string, t time.Time) string {
	return published.AutosavePrefix + key + "-" + t.UTC().Format(stampLayout)
}

// QuitPrefix starts the names of the saves kitty's quit watcher publishes:
// autosave-quit-KITTYPID-TIME, the kitty's pid and the time as in Name, so
// the quit save counts as that kitty's newest save and tells it ended at a
// confirmed quit.
const QuitPrefix = published.AutosavePrefix + "quit-"

// QuitName is the session name of kitty key's save at a confirmed quit at t.
func QuitName(key string, t time.Time) string {
	return QuitPrefix + key + "-" + t.UTC().Format(stampLayout)
}

// IsQuit says whether name is a save made at a confirmed quit.
func IsQuit(name string) bool {
	_, _, ok := ParseName(name)
	return ok && strings.HasPrefix(name, QuitPrefix)
}

// ParseName reads the kitty key and time back from a session name, an
// autosave's or a quit save's.
func ParseName(name string) (key string, at time.Time, ok bool) {
	rest, ok := strings.CutPrefix(name, QuitPrefix)
	if !ok {
		rest, ok = strings.CutPrefix(name, published.AutosavePrefix)
	}
	if !ok {
		return "", time.Time{}, false
	}
	i := strings.LastIndexByte(rest, '-')
	if i <= 0 {
		return "", time.Time{}, false
	}
	at, err := time.Parse(stampLayout, rest[i+1:])
	if err != nil {
		return "", time.Time{}, false
	}
	return rest[:i], at, true
}

// Store keeps the autosaves, as sessions/autosave-KITTY-TIME.kitty-session.
type Store struct {
	Paths paths.Paths
	Keep  int
	// ResumeBin is the kittymux-resume the saves name: the restored plain
	// windows run it to show their screen history.
	ResumeBin string
}

// KeepKitties is how many kitties' autosaves are kept: each run of kitty
// has its own (its pid names them), and without a bound every restart
// would leave Keep more behind.
const KeepKitties = 10

// Publish writes data as kitty key's newest save, then removes that
// kitty's saves beyond the newest Keep, and every save of the kitties
// beyond the KeepKitties whose newest save is most recent (this one
// counts). Only a good save gets here: the older ones go only once it is
// written.
func (s Store) Publish(key string, at time.Time, res *rewrite.Result) (string, error) {
	path, err := save.Publish(s.Paths, Name(key, at), s.ResumeBin, res, at)
	if err != nil {
		return "", err
	}
	all, err := published.List(s.Paths)
	if err != nil {
		return path, err
	}
	var names []string
	for _, in := range all {
		names = append(names, in.Name)
	}
	for _, n := range pruneAll(names, key, s.Keep) {
		if err := published.Remove(s.Paths, n); err != nil {
			return path, fmt.Errorf("remove an old autosave: %w", err)
		}
	}
	return path, nil
}

// pruneAll returns which of the session names to remove: kitty key's saves
// beyond its newest keep, and the saves of the kitties beyond the
// KeepKitties with the newest saves, key always among those kept. Names
// that are no autosave of a kitty are never returned.
func pruneAll(names []string, key string, keep int) []string {
	byKitty := map[string][]string{}
	newest := map[string]time.Time{}
	for _, n := range names {
		k, at, ok := ParseName(n)
		if !ok {
			continue
		}
		byKitty[k] = append(byKitty[k], n)
		if at.After(newest[k]) {
			newest[k] = at
		}
	}
	var others []string
	for k := range byKitty {
		if k != key {
			others = append(others, k)
		}
	}
	sort.Slice(others, func(i, j int) bool {
		if !newest[others[i]].Equal(newest[others[j]]) {
			return newest[others[i]].After(newest[others[j]])
		}
		return others[i] < others[j]
	})
	mine := byKitty[key]
	sort.Strings(mine)
	out := Prune(mine, keep)
	for i, k := range others {
		if i >= KeepKitties-1 {
			out = append(out, byKitty[k]...)
		}
	}
	sort.Strings(out)
	return out
}

// Names are kitty key's saves, oldest first.
func (s Store) Names(key string) ([]string, error) {
	all, err := published.List(s.Paths)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, in := range all {
		if k, _, ok := ParseName(in.Name); ok && k == key {
			out = append(out, in.Name)
		}
	}
	sort.Strings(out)
	return out, nil
}
