// Package journal keeps agent-sessions.json: one record per agent session
// the scanner has seen, with its conversation id where the agent's own
// records give it, how long it worked and how it ended.
//
// Several writers share the file (a scanner, commands, a second scanner of
// another login): every change is a read-modify-write under a lock on a
// sibling lock file, written by atomic rename, so a reader never sees a torn
// file and no writer's change is lost.
package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/google/renameio/v2"
)

// SchemaVersion is the version of the file format this package writes. A
// file with a newer version is left alone: an older kittymux must not
// rewrite what it does not understand.
const SchemaVersion = 1

// Bounds of the journal (design.md).
const (
	MaxRecords = 300
	MaxAge     = 90 * 24 * time.Hour
)

// States of an agent session.
const (
	StateUnknown = "unknown"
	StateWorking = "working"
	StateIdle    = "idle"
	// StateAttention: the agent waits for the user (a permission prompt;
	// kitty's needs_attention). It is not working: a run ends there too.
	StateAttention = "needs_attention"
)

// Close reasons. Recover offers only KittyGone: a window the user closed, or
// an agent that exited while its kitty lived (ClosedWindow too, with a
// CloseDetail saying so), was a deliberate end.
const (
	ClosedWindow    = "window-closed"
	ClosedKittyGone = "kitty-gone"
)

// Sentinel errors.
var (
	// ErrOff: the journal is turned off (KITTYMUX_JOURNAL=0 or journal-off).
	ErrOff = errors.New("journal is off")
	// ErrNewer: the file was written by a newer kittymux.
	ErrNewer = errors.New("journal was written by a newer kittymux")
)

// File is the whole of agent-sessions.json. Field names are stable.
type File struct {
	Version int      `json:"version"`
	Records []Record `json:"records"`
	// Restores are what the restore prompts did, oldest first.
	Restores []Restore `json:"restores,omitempty"`
}

// Record is one agent session: one agent process in one kitty window.
type Record struct {
	// Key identifies the session among writers: kitty, window and agent
	// process. Records are merged by it.
	Key   string `json:"key"`
	Agent string `json:"agent"`
	// ID is the conversation id, when known, and IDFrom where it was read
	// ("command line", "claude sessions/<pid>.json", ...). Only exact sources
	// are recorded: never a newest-file guess.
	ID     string `json:"id,omitempty"`
	IDFrom string `json:"id_from,omitempty"`
	// PreviousIDs are ids the same process had before (claude's /clear
	// starts a new conversation in the same process), oldest first.
	PreviousIDs []string `json:"previous_ids,omitempty"`
	Dir         string   `json:"dir"`
	TabTitle    string   `json:"tab_title,omitempty"`
	// Argv is the agent's command with its flags (prompt arguments and
	// secrets already dropped by recognition).
	Argv      []string  `json:"argv"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
	State     string    `json:"state"`
	// StateFrom says what the state was read from: "title", "claude
	// sessions/<pid>.json", "needs_attention", a hook later.
	StateFrom  string    `json:"state_from,omitempty"`
	StateSince time.Time `json:"state_since"`
	// HookAt is when the agent's own hook last changed this record; nil
	// when no hook ever did. Once set, the hook owns the id, the state and
	// the counts: a scanner takes them from the record rather than from
	// kitty (see AdoptHook).
	HookAt *time.Time `json:"hook_at,omitempty"`
	// RunsFinished counts working → idle changes.
	RunsFinished int `json:"runs_finished"`
	// WorkingSeconds is the time spent working, summed over runs, up to
	// LastSeen.
	WorkingSeconds float64    `json:"working_seconds"`
	Open           bool       `json:"open"`
	ClosedAt       *time.Time `json:"closed_at,omitempty"`
	CloseReason    string     `json:"close_reason,omitempty"`
	// CloseDetail tells closes of one reason apart for people: a window
	// closed, or an agent that exited while its window stayed.
	CloseDetail string `json:"close_detail,omitempty"`
	// Where it ran.
	KittyPID    int    `json:"kitty_pid,omitempty"`
	KittySocket string `json:"kitty_socket"`
	WindowID    int    `json:"window_id"`
	PID         int    `json:"pid,omitempty"`
}

// Working is the time spent working as a duration.
func (r Record) Working() time.Duration {
	return time.Duration(r.WorkingSeconds * float64(time.Second))
}

// Journal is agent-sessions.json and its lock. The zero value is not usable:
// use New.
type Journal struct {
	Path string
	// Off: updates do nothing and return ErrOff.
	Off bool
	// Now is the clock bounds are measured with; time.Now by default.
	Now func() time.Time
}

// New returns the journal at path (paths.Paths.Journal). off is whether the
// user turned it off: see IsOff.
func New(path string, off bool) *Journal {
	return &Journal{Path: path, Off: off, Now: time.Now}
}

// IsOff reports whether the user turned the journal off: KITTYMUX_JOURNAL=0,
// or a file named journal-off in the state directory.
func IsOff(stateDir string, getenv func(string) string) bool {
	if getenv != nil && getenv("KITTYMUX_JOURNAL") == "0" {
		return true
	}
	_, err := os.Stat(filepath.Join(stateDir, "journal-off"))
	return err == nil
}

// LockPath is the sibling file writers lock. The journal itself cannot be
// the lock: each write renames a new inode over it, so a lock on it would
// guard a file nobody reads any more.
func (j *Journal) LockPath() string { return j.Path + ".lock" }

// Read returns the journal as it is now, without the lock: the file is only
// ever replaced whole, so any read sees one complete version. A missing file
// is an empty journal; a corrupt one is an error (writers move it aside).
func (j *Journal) Read() (*File, error) {
	data, err := os.ReadFile(j.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Version: SchemaVersion}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read journal %s: %w", j.Path, err)
	}
	return decode(data, j.Path)
}

func decode(data []byte, path string) (*File, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, &CorruptError{Path: path, Err: err}
	}
	if f.Version == 0 {
		return nil, &CorruptError{Path: path, Err: errors.New("no version field")}
	}
	if f.Version > SchemaVersion {
		return nil, fmt.Errorf("journal %s has version %d, this kittymux knows %d: %w", path, f.Version, SchemaVersion, ErrNewer)
	}
	return &f, nil
}

// CorruptError: the journal does not parse.
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string { return fmt.Sprintf("journal %s is corrupt: %v", e.Path, e.Err) }
func (e *CorruptError) Unwrap() error { return e.Err }

// Update reads the journal under the lock, lets fn change it, bounds it and
// writes it back atomically. A corrupt journal is moved aside (kept, named
// agent-sessions.json.corrupt-<time>) and fn starts from an empty one; the
// returned Result says so. fn returning an error writes nothing.
func (j *Journal) Update(fn func(*File) error) (Result, error) {
	return j.UpdateContext(context.Background(), fn)
}

// UpdateContext is Update that waits for the lock only until ctx ends (a
// hook must never hold up its agent); a ctx that never ends waits as long
// as it takes.
func (j *Journal) UpdateContext(ctx context.Context, fn func(*File) error) (Result, error) {
	var res Result
	if j.Off {
		return res, ErrOff
	}
	dir := filepath.Dir(j.Path)
	if err := ensureDir(dir); err != nil {
		return res, err
	}
	lock := flock.New(j.LockPath(), flock.SetPermissions(0o600))
	if ctx.Done() == nil {
		if err := lock.Lock(); err != nil {
			return res, fmt.Errorf("lock journal %s: %w", lock.Path(), err)
		}
	} else if ok, err := lock.TryLockContext(ctx, 2*time.Millisecond); !ok {
		if err == nil {
			err = ctx.Err()
		}
		return res, fmt.Errorf("lock journal %s: %w", lock.Path(), err)
	}
	defer lock.Unlock()

	f, err := j.Read()
	var ce *CorruptError
	switch {
	case errors.As(err, &ce):
		aside := fmt.Sprintf("%s.corrupt-%s", j.Path, j.now().UTC().Format("20060102T150405.000000000"))
		if err := os.Rename(j.Path, aside); err != nil {
			return res, fmt.Errorf("move corrupt journal aside: %w", err)
		}
		res.MovedAside = aside
		f = &File{Version: SchemaVersion}
	case err != nil:
		return res, err
	}
	if err := fn(f); err != nil {
		return res, err
	}
	f.Version = SchemaVersion
	Bound(f, j.now())
	data, err := encode(f)
	if err != nil {
		return res, err
	}
	if err := writeFile(j.Path, data); err != nil {
		return res, err
	}
	return res, nil
}

// encode writes one record a line, compact: encoding is most of an
// update's time and every writer waits on it under the lock, and the prompt
// finds a conversation's record by decoding only the lines that name it.
func encode(f *File) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"version\":%d,\"records\":[", f.Version)
	for i, r := range f.Records {
		line, err := json.Marshal(r)
		if err != nil {
			return nil, fmt.Errorf("encode journal: %w", err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		b.Write(line)
	}
	b.WriteString("\n]")
	if len(f.Restores) > 0 {
		b.WriteString(",\"restores\":[")
		for i, r := range f.Restores {
			line, err := json.Marshal(r)
			if err != nil {
				return nil, fmt.Errorf("encode journal: %w", err)
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
			b.Write(line)
		}
		b.WriteString("\n]")
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// LatestOf returns the most recently seen record of conversation id of
// agent, or nil, reading only the lines of the journal that name the id (the
// prompt asks in every restored window: no full decode of 300 records). A
// file not laid out a record a line is read whole.
func (j *Journal) LatestOf(agent, id string) (*Record, error) {
	if id == "" {
		return nil, nil
	}
	data, err := os.ReadFile(j.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read journal %s: %w", j.Path, err)
	}
	quoted, _ := json.Marshal(id)
	if !bytes.Contains(data, quoted) {
		return nil, nil
	}
	if !bytes.HasPrefix(data, []byte(`{"version":`)) {
		return j.latestSlow(data, agent, id)
	}
	f := &File{}
	for rest := data; ; {
		i := bytes.Index(rest, quoted)
		if i < 0 {
			break
		}
		start := bytes.LastIndexByte(rest[:i], '\n') + 1
		end := bytes.IndexByte(rest[i:], '\n')
		if end < 0 {
			end = len(rest) - i
		}
		line := bytes.TrimRight(rest[start:i+end], ",")
		rest = rest[i+end:]
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			return j.latestSlow(data, agent, id)
		}
		if r.Key != "" { // not a restore's line
			f.Records = append(f.Records, r)
		}
	}
	return f.Latest(agent, id), nil
}

func (j *Journal) latestSlow(data []byte, agent, id string) (*Record, error) {
	f, err := decode(data, j.Path)
	if err != nil {
		return nil, err
	}
	return f.Latest(agent, id), nil
}

// Result says what an Update had to do besides the change.
type Result struct {
	// MovedAside is where a corrupt journal was moved, or "".
	MovedAside string
}

func (j *Journal) now() time.Time {
	if j.Now == nil {
		return time.Now()
	}
	return j.Now()
}

// CorruptCopies lists journals moved aside because they did not parse,
// oldest first, for doctor.
func (j *Journal) CorruptCopies() []string {
	m, _ := filepath.Glob(j.Path + ".corrupt-*")
	sort.Strings(m)
	return m
}

// ensureDir makes dir 0700, tightening it when it exists looser: the
// journal holds directories and commands of the user's work.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create journal directory %s: %w", dir, err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("journal directory: %w", err)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("set permissions of %s: %w", dir, err)
		}
	}
	return nil
}

// writeFile replaces path atomically with mode 0600 whatever the umask, and
// syncs the directory so the rename itself survives a crash.
func writeFile(path string, data []byte) error {
	if err := renameio.WriteFile(path, data, 0o600, renameio.WithStaticPermissions(0o600)); err != nil {
		return fmt.Errorf("write journal %s: %w", path, err)
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("sync journal directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync journal directory: %w", err)
	}
	return nil
}

// Bound drops records past the limits: records last seen more than MaxAge
// ago (an open one that old belongs to a scanner long gone), then, over MaxRecords, the least recently seen, closed ones
// before open ones.
func Bound(f *File, now time.Time) {
	cutoff := now.Add(-MaxAge)
	f.Restores = slices.DeleteFunc(f.Restores, func(r Restore) bool { return r.At.Before(cutoff) })
	if n := len(f.Restores); n > MaxRestores {
		f.Restores = slices.Delete(f.Restores, 0, n-MaxRestores)
	}
	f.Records = slices.DeleteFunc(f.Records, func(r Record) bool {
		return r.LastSeen.Before(cutoff)
	})
	if len(f.Records) <= MaxRecords {
		return
	}
	order := make([]int, len(f.Records))
	for i := range order {
		order[i] = i
	}
	// Drop order: closed before open, then oldest LastSeen first.
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := f.Records[order[a]], f.Records[order[b]]
		if ra.Open != rb.Open {
			return !ra.Open
		}
		return ra.LastSeen.Before(rb.LastSeen)
	})
	drop := map[int]bool{}
	for _, i := range order[:len(f.Records)-MaxRecords] {
		drop[i] = true
	}
	kept := f.Records[:0]
	for i, r := range f.Records {
		if !drop[i] {
			kept = append(kept, r)
		}
	}
	f.Records = kept
}

// Find returns the record with key, or nil.
func (f *File) Find(key string) *Record {
	for i := range f.Records {
		if f.Records[i].Key == key {
			return &f.Records[i]
		}
	}
	return nil
}

// Upsert replaces the record with r's key, or appends r.
func (f *File) Upsert(r Record) {
	if p := f.Find(r.Key); p != nil {
		*p = r
		return
	}
	f.Records = append(f.Records, r)
}

// Latest returns the most recently seen record of the conversation id of
// agent, or nil. An id is exact by construction, so a record of it is the
// conversation's, whichever window it ran in.
func (f *File) Latest(agent, id string) *Record {
	var best *Record
	for i := range f.Records {
		r := &f.Records[i]
		if r.Agent != agent || r.ID != id || id == "" {
			continue
		}
		if best == nil || r.LastSeen.After(best.LastSeen) {
			best = r
		}
	}
	return best
}

// Key builds a record key from where the session runs. The kitty socket
// and pid name the kitty; the window id is unique within it; the agent pid
// tells two agents run one after the other in one window apart.
func Key(kittySocket string, kittyPID, windowID, agentPID int) string {
	return strings.Join([]string{kittySocket, fmt.Sprint(kittyPID), fmt.Sprint(windowID), fmt.Sprint(agentPID)}, "|")
}
