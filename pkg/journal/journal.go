// Package journal keeps agent-sessions.json: one record per agent session
// the scanner has seen, with its conversation id where the agent's own
// records give it, how long it worked and how it ended.
//
// Several writers share the file (a scanner, commands, a second scanner of
// another login): every change is a read-modify-write under a lock on a
// sibling lock file, written by atomic rename, so a reader never sees a torn
// file and no writer's change is lost. Agents' hooks, which cannot wait
// long, queue what they could not write in a spool the next writer merges
// (queues.go, pkg/spool).
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
	"sync"
	"syscall"
	"time"

	"github.com/kittymux/kittymux/pkg/clock"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// SchemaVersion is the version of the file format this package writes. A
// file with a newer version is left alone: an older kittymux must not
// rewrite what it does not understand.
const SchemaVersion = 1

// Bounds of the journal (docs/how-it-works.md).
const (
	MaxRecords = 300
	MaxAge     = 90 * 24 * time.Hour
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
	// ErrBusy: another writer held the lock for as long as the caller
	// would wait.
	ErrBusy = errors.New("journal is locked by another writer")
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
	Argv []string `json:"argv"`
	// Exe are the files the agent process ran (its executable and, for an
	// interpreter, the agent's script), symlinks resolved, as the scanner
	// read them from the OS; empty where it could not (no /proc). Only a
	// record with them says what kittymux saw run: a publish without a
	// live kitty seals a window's command from it.
	Exe []string `json:"exe,omitempty"`
	// Env are the assignments typed before the agent's name that its
	// process's own environment holds.
	Env       []string  `json:"env,omitempty"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
	// State is one of agents.StateUnknown, StateWorking, StateIdle and
	// StateAttention.
	State string `json:"state"`
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
	// Start is when process PID started, as the scanner read it from the
	// OS (recognize.Proc.Start): with PID, the process's identity. A record
	// without one (a hook's, an older kittymux's, another OS) never
	// confirms a command for a seal.
	Start string `json:"start,omitempty"`
	// Nested: an agent run inside a window's own agent (a tool of it ran
	// `claude -p …`), recorded as its own session: never the window's
	// conversation.
	Nested bool `json:"nested,omitempty"`
	// Host is where an agent reached over ssh ran: the destination of the
	// window's ssh command as kittymux saw it (Argv, Exe), and ReportedBy
	// the name the host's hook gave; Dir is then its directory there.
	// Such records live in their own file (paths.Paths.RemoteJournal):
	// what they say came from another machine.
	Host       string `json:"host,omitempty"`
	ReportedBy string `json:"reported_by,omitempty"`
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
	// Clock is what bounds are measured with; nil is the system's.
	Clock clock.Clock

	// unordered: take the lock without a turn (flock's order), to compare.
	unordered bool
	// held, when set, is told how long each update held the lock.
	held func(time.Duration)

	mu sync.Mutex
	// lines are the records of the last version this Journal read or
	// wrote, in the file's order, each with the line of text it was decoded
	// from. Shared between versions: never changed.
	lines []*line
	// shared is the file as the lookups (LatestOf, MayHaveLeft) last read
	// it, with what the file was then (readShared).
	shared     []byte
	sharedInfo os.FileInfo
}

// New returns the journal at path (paths.Paths.Journal). off is whether the
// user turned it off: see IsOff.
func New(path string, off bool) *Journal {
	return &Journal{Path: path, Off: off}
}

// IsOff reports whether the user turned the journal off: KITTYMUX_JOURNAL=0,
// or a file named journal-off in the state directory.
func IsOff(stateDir string, getenv func(string) string) bool {
	if getenv != nil && getenv("KITTYMUX_JOURNAL") == "0" {
		return true
	}
	_, err := os.Stat(filepath.Join(stateDir, paths.JournalOffName))
	return err == nil
}

// LockPath is the sibling file writers lock. The journal itself cannot be
// the lock: each write renames a new inode over it, so a lock on it would
// guard a file nobody reads any more.
func (j *Journal) LockPath() string { return j.Path + ".lock" }

// MaxSize caps a read of the journal: 300 records are well under 1 MiB.
const MaxSize = 32 << 20

// Read returns the journal as it is now, without the lock: the file is only
// ever replaced whole, so any read sees one complete version. Hook events
// still waiting in the spool are applied to what is returned (see AddHook).
// A missing file is an empty journal; a corrupt one is an error (writers
// move it aside); anything but a regular file is refused without blocking.
func (j *Journal) Read() (*File, error) {
	// The queue is read before the journal: an outcome a writer moves in
	// between is then read twice (and kept once), never missed.
	pending, _ := j.readQueue()
	var f *File
	err := j.hookSpool().With(func(spool []byte) error {
		data, err := readJournal(j.Path)
		if errors.Is(err, fs.ErrNotExist) {
			f = &File{Version: SchemaVersion}
		} else if err != nil {
			return err
		} else if f, err = decode(data, j.Path); err != nil {
			return err
		}
		applySpool(f, spool)
		// So are the restore prompts' queued outcomes (QueueRestore).
		f.Restores = mergeRestores(f.Restores, pending)
		return nil
	})
	return f, err
}

// readJournalOpen is readJournal that leaves the file open in *old, for
// a writer to close once it has released the lock: the writer's rename
// unlinks it, and the last close of an unlinked file frees its blocks,
// which is work no other writer need wait for.
func readJournalOpen(path string, old **os.File) ([]byte, error) {
	f, err := userfile.Open(path)
	if err == nil {
		*old = f
		var data []byte
		if data, err = userfile.ReadOpen(f, MaxSize); err == nil {
			return data, nil
		}
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read journal %s: %w", path, err)
	}
	return nil, err
}

// readShared reads the file for the lookups that only read it (LatestOf,
// MayHaveLeft): while the file is the same (its inode, size and time of
// modification), the bytes read before. A restore prompt asks of one
// journal more than once before its exec, and a journal of 300 records is
// 110 KB. Writers rename a new file over the journal, which changes its
// inode; a Journal that reads this way lives for one prompt's run.
func (j *Journal) readShared() ([]byte, error) {
	st, err := os.Stat(j.Path)
	j.mu.Lock()
	defer j.mu.Unlock()
	if err == nil && j.sharedInfo != nil && os.SameFile(st, j.sharedInfo) && st.Size() == j.sharedInfo.Size() &&
		st.ModTime().Equal(j.sharedInfo.ModTime()) {
		return j.shared, nil
	}
	data, rerr := readJournal(j.Path)
	j.shared, j.sharedInfo = nil, nil
	if rerr == nil && err == nil {
		// Kept with what the file was before it was read: one changed in
		// between reads as changed next time, and is read again.
		j.shared, j.sharedInfo = data, st
	}
	return data, rerr
}

// readJournal reads the file at path: a FIFO or device there is refused,
// never waited on (a writer reads it holding the lock).
func readJournal(path string) ([]byte, error) {
	data, err := userfile.Read(path, MaxSize)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read journal %s: %w", path, err)
	}
	return data, err
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
// writes it back atomically through statefile (a state directory that is a
// symbolic link is refused). A corrupt journal is moved aside (kept, named
// agent-sessions.json.corrupt-<time>) and fn starts from an empty one; the
// returned Result says so. fn returning an error writes nothing, and so
// does a change that leaves every record as it was.
//
// The lock is held from the read to the rename, so every writer waits for
// the one before: the time it is held is kept short. Each record is a line
// of the file, and a line this Journal decoded before is not decoded again,
// nor a record fn left as it was encoded again: an update costs the records
// it changes, not all 300.
func (j *Journal) Update(fn func(*File) error) (Result, error) {
	return j.UpdateContext(context.Background(), fn)
}

// UpdateContext is Update that waits for the lock only until ctx ends (a
// hook must never hold up its agent); a ctx that never ends waits as long
// as it takes.
//
// The new journal's data is synced before the rename that publishes it
// (a crash of the machine leaves the old journal or the new one, whole),
// and the directory after the lock is released: the next writer does not
// wait for that sync, and Update still returns only once the change is
// durable.
func (j *Journal) UpdateContext(ctx context.Context, fn func(*File) error) (Result, error) {
	res, sync, err := j.update(ctx, fn)
	if err != nil || sync == nil {
		return res, err
	}
	if err := sync(); err != nil {
		return res, fmt.Errorf("write journal: %w", err)
	}
	return res, nil
}

// update is UpdateContext up to the sync, which it returns (nil when
// nothing was written); every lock is released when it returns.
func (j *Journal) update(ctx context.Context, fn func(*File) error) (Result, func() error, error) {
	var res Result
	if j.Off {
		return res, nil, ErrOff
	}
	dir, err := statefile.Make(filepath.Dir(j.Path))
	if err != nil {
		return res, nil, fmt.Errorf("journal directory: %w", err)
	}
	defer dir.Close()
	// The new journal's file is made before the lock is asked for: making
	// a file can wait on the file system, and no other writer should wait
	// with it. Unused (nothing changed, an error), it is removed once the
	// lock is released.
	next, err := dir.Prepare(filepath.Base(j.Path))
	if err != nil {
		return res, nil, fmt.Errorf("write journal: %w", err)
	}
	defer func() {
		if next != nil {
			next.Discard()
		}
	}()
	var old *os.File // the journal read, closed after the lock
	defer func() {
		if old != nil {
			old.Close()
		}
	}()
	lock, err := dir.OpenLock(filepath.Base(j.LockPath()))
	if err != nil {
		return res, nil, fmt.Errorf("lock journal: %w", err)
	}
	// Writers ask for the lock in turn (see turn_linux.go). Closing the
	// file drops the lock; then the turn ends, and the next writer asks.
	t := j.takeTurn(ctx, dir)
	defer func() {
		lock.Close()
		t.done()
	}()
	if err := statefile.Flock(ctx, lock, syscall.LOCK_EX); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("%w: %w", ErrBusy, err)
		}
		return res, nil, fmt.Errorf("lock journal %s: %w", j.LockPath(), err)
	}
	if j.held != nil {
		defer func(locked time.Time) { j.held(time.Since(locked)) }(time.Now())
	}
	// Hook events that could not wait for the lock are applied first, in
	// the order they came; the spool is emptied once the journal holding
	// them is written.
	hook := j.hookSpool().Take(dir)
	defer hook.Close()

	j.mu.Lock()
	defer j.mu.Unlock()
	f, lines, restores, err := j.readCached(&old)
	var ce *CorruptError
	switch {
	case errors.As(err, &ce):
		aside := fmt.Sprintf("%s.corrupt-%s", j.Path, j.now().UTC().Format("20060102T150405.000000000"))
		if err := os.Rename(j.Path, aside); err != nil {
			return res, nil, fmt.Errorf("move corrupt journal aside: %w", err)
		}
		res.MovedAside = aside
		f, lines, restores = &File{Version: SchemaVersion}, nil, ""
	case err != nil:
		return res, nil, err
	}
	applySpool(f, hook.Lines())
	if err := fn(f); err != nil {
		return res, nil, err
	}
	// Outcomes the restore prompts queued come in with any update.
	pending, queued := j.readQueue()
	f.Restores = mergeRestores(f.Restores, pending)
	oldVersion := f.Version
	f.Version = SchemaVersion
	Bound(f, j.now())
	data, changed, err := j.encodeCached(f, lines, restores)
	if err != nil {
		return res, nil, err
	}
	if !changed && oldVersion == SchemaVersion && res.MovedAside == "" && lines != nil {
		hook.Drop(len(hook.Lines()))
		j.dropQueued(dir, queued)
		return res, nil, nil
	}
	p := next
	next = nil
	sync, err := p.Replace(data)
	if err != nil {
		return res, nil, fmt.Errorf("write journal: %w", err)
	}
	hook.Drop(len(hook.Lines()))
	j.dropQueued(dir, queued)
	return res, sync, nil
}

// line is one record as read, with the text it was decoded from.
type line struct {
	text string
	rec  Record
}

// readCached reads the journal for Update: its records, and beside each
// the line it came from (nil lines: the file is new, or not laid out a
// record a line), and the text of its restores list as written. Lines
// decoded by an earlier Update of this Journal are taken from j.lines rather
// than decoded again.
func (j *Journal) readCached(old **os.File) (*File, []*line, string, error) {
	data, err := readJournalOpen(j.Path, old)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Version: SchemaVersion}, nil, "", nil
	}
	if err != nil {
		return nil, nil, "", err
	}
	head := fmt.Sprintf("{\"version\":%d,\"records\":[", SchemaVersion)
	body, ok := bytes.CutPrefix(data, []byte(head))
	var restores []byte
	if ok {
		body, ok = bytes.CutSuffix(body, []byte("\n]}\n"))
	}
	if ok {
		// A record is one line of JSON: none starts a line with "]".
		if i := bytes.Index(body, []byte(restoresHead)); i >= 0 {
			body, restores = body[:i], body[i+len(restoresHead):]
		}
	}
	f := &File{Version: SchemaVersion}
	if ok && len(restores) > 0 {
		ok = json.Unmarshal(append(append([]byte("["), restores...), ']'), &f.Restores) == nil
	}
	if !ok {
		f, err := decode(data, j.Path)
		return f, nil, "", err
	}
	n := bytes.Count(body, []byte(",\n")) + 1
	f.Records = make([]Record, 0, n)
	lines := make([]*line, 0, n)
	prev, k := j.lines, 0
	for raw := range bytes.SplitSeq(body, []byte(",\n")) {
		raw = bytes.TrimPrefix(raw, []byte("\n"))
		if len(raw) == 0 {
			if len(body) == 0 {
				continue // no records
			}
			// An empty element (a comma too many): not valid JSON, which
			// the whole decode says.
			f, err := decode(data, j.Path)
			return f, nil, "", err
		}
		l := match(prev, &k, raw)
		if l == nil {
			l = &line{text: string(raw)}
			if err := json.Unmarshal(raw, &l.rec); err != nil {
				// Not our layout after all (a record spanning lines):
				// the whole decode says whether it is corrupt.
				f, err := decode(data, j.Path)
				return f, nil, "", err
			}
		}
		lines = append(lines, l)
		f.Records = append(f.Records, l.rec.clone())
	}
	j.lines = lines
	return f, lines, string(restores), nil
}

// lookahead is how far past the last line matched match looks: the lines
// of two versions line up, each update changing, adding or dropping a few
// records in place. Past it (many records dropped at once) lines are
// decoded again: slower, never wrong.
const lookahead = 16

// match returns the line of prev, from *k on and at most lookahead lines
// on, whose text is raw, and moves *k past it; nil when there is none. A
// comparison of two lines, which differ early or not at all, costs less
// than hashing one.
func match(prev []*line, k *int, raw []byte) *line {
	for i := *k; i < len(prev) && i < *k+lookahead; i++ {
		if prev[i].text == string(raw) {
			*k = i + 1
			return prev[i]
		}
	}
	return nil
}

// restoresHead ends the records and starts the restores list.
const restoresHead = "\n],\"restores\":["

// encodeCached encodes f a record a line, reusing the text of each record
// fn did not change, and reports whether anything changed.
func (j *Journal) encodeCached(f *File, lines []*line, restores string) ([]byte, bool, error) {
	changed := len(f.Records) != len(lines)
	written := make([]*line, len(f.Records))
	var b bytes.Buffer
	b.Grow(len(f.Records) * 512)
	fmt.Fprintf(&b, "{\"version\":%d,\"records\":[", f.Version)
	for i, r := range f.Records {
		if i < len(lines) && lines[i].rec.equal(r) {
			written[i] = lines[i]
		} else {
			changed = true
			enc, err := json.Marshal(r)
			if err != nil {
				return nil, false, fmt.Errorf("encode journal: %w", err)
			}
			written[i] = &line{text: string(enc), rec: r.clone()}
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		b.WriteString(written[i].text)
	}
	var rs bytes.Buffer
	for i, r := range f.Restores {
		enc, err := json.Marshal(r)
		if err != nil {
			return nil, false, fmt.Errorf("encode journal: %w", err)
		}
		if i > 0 {
			rs.WriteByte(',')
		}
		rs.WriteByte('\n')
		rs.Write(enc)
	}
	if rs.String() != restores {
		changed = true
	}
	if rs.Len() > 0 {
		b.WriteString(restoresHead)
		b.Write(rs.Bytes())
	}
	b.WriteString("\n]}\n")
	// What is written is what the next update of this Journal reads.
	j.lines = written
	return b.Bytes(), changed, nil
}

func (r Record) clone() Record {
	r.Argv = slices.Clone(r.Argv)
	r.Exe = slices.Clone(r.Exe)
	r.Env = slices.Clone(r.Env)
	r.PreviousIDs = slices.Clone(r.PreviousIDs)
	if r.ClosedAt != nil {
		t := *r.ClosedAt
		r.ClosedAt = &t
	}
	if r.HookAt != nil {
		t := *r.HookAt
		r.HookAt = &t
	}
	return r
}

// equal reports whether r and o encode the same.
func (r Record) equal(o Record) bool {
	return r.Key == o.Key && r.Agent == o.Agent && r.ID == o.ID && r.IDFrom == o.IDFrom &&
		slices.Equal(r.PreviousIDs, o.PreviousIDs) && r.Dir == o.Dir && r.TabTitle == o.TabTitle &&
		slices.Equal(r.Argv, o.Argv) && slices.Equal(r.Exe, o.Exe) && slices.Equal(r.Env, o.Env) && sameTime(r.FirstSeen, o.FirstSeen) && sameTime(r.LastSeen, o.LastSeen) &&
		r.State == o.State && r.StateFrom == o.StateFrom && sameTime(r.StateSince, o.StateSince) &&
		r.RunsFinished == o.RunsFinished && r.WorkingSeconds == o.WorkingSeconds && r.Open == o.Open &&
		(r.ClosedAt == nil) == (o.ClosedAt == nil) && (r.ClosedAt == nil || sameTime(*r.ClosedAt, *o.ClosedAt)) &&
		r.CloseReason == o.CloseReason && r.CloseDetail == o.CloseDetail && r.KittyPID == o.KittyPID &&
		r.KittySocket == o.KittySocket && r.WindowID == o.WindowID && r.PID == o.PID && r.Start == o.Start && r.Nested == o.Nested &&
		r.Host == o.Host && r.ReportedBy == o.ReportedBy &&
		(r.HookAt == nil) == (o.HookAt == nil) && (r.HookAt == nil || sameTime(*r.HookAt, *o.HookAt))
}

// sameTime: equal instants in the same location encode the same.
func sameTime(a, b time.Time) bool { return a.Equal(b) && a.Location() == b.Location() }

// LatestOf returns the most recently seen record of conversation id of
// agent, or nil, reading only the lines of the journal that name the id (the
// prompt asks in every restored window: no full decode of 300 records). A
// file not laid out a record a line is read whole.
func (j *Journal) LatestOf(agent, id string) (*Record, error) {
	if id == "" {
		return nil, nil
	}
	if j.hookSpool().Waiting() {
		f, err := j.Read()
		if err != nil {
			return nil, err
		}
		return f.Latest(agent, id), nil
	}
	data, err := j.readShared()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	quoted, _ := json.Marshal(id)
	if indexQuoted(data, quoted) < 0 {
		return nil, nil
	}
	if !bytes.HasPrefix(data, []byte(`{"version":`)) {
		return j.latestSlow(data, agent, id)
	}
	f := &File{}
	for rest := data; ; {
		i := indexQuoted(rest, quoted)
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

// MayHaveLeft reports whether a process of the journal may have left
// conversation id (it is among some record's previous ids), reading the
// file's bytes only: false means surely not, so a restore prompt resuming
// id need not decode the journal to follow where it went.
func (j *Journal) MayHaveLeft(id string) bool {
	if id == "" || j.Off {
		return false
	}
	if j.hookSpool().Waiting() {
		return true
	}
	data, err := j.readShared()
	if err != nil {
		return false
	}
	if !bytes.HasPrefix(data, []byte(`{"version":`)) {
		return true // not as kittymux writes it: the decoder will tell
	}
	quoted, _ := json.Marshal(id)
	return inPreviousIDs(data, quoted)
}

// inPreviousIDs reports whether quoted (a JSON string) is in some record's
// "previous_ids" list of data, a journal as kittymux writes it: a record a
// line. It looks for the id, which is rare, and reads back along its line
// for the list's key: looking for the key first scanned the whole file
// (a quote every few bytes, as indexQuoted says), 0.9 M instructions of a
// restore prompt's 3 M for a journal of 300 records and none of them with
// previous ids.
func inPreviousIDs(data, quoted []byte) bool {
	key := []byte(`"previous_ids":[`)
	for off := 0; ; {
		i := indexQuoted(data[off:], quoted)
		if i < 0 {
			return false
		}
		i += off
		line := data[bytes.LastIndexByte(data[:i], '\n')+1 : i]
		if k := bytes.LastIndex(line, key); k >= 0 && bytes.IndexByte(line[k+len(key):], ']') < 0 {
			return true
		}
		off = i + 1
	}
}

// indexQuoted is bytes.Index(data, quoted) for quoted a JSON string of at
// least one character. It looks for what follows the opening quote and
// then checks the quote: bytes.Index skips ahead by the needle's first
// byte, and a quote, on every few bytes of a journal, made it compare at
// nearly every one (most of the prompt's lookup, the id being absent).
func indexQuoted(data, quoted []byte) int {
	inner := quoted[1:]
	for off := 0; ; {
		i := bytes.Index(data[off:], inner)
		if i < 0 {
			return -1
		}
		if i += off; i > 0 && data[i-1] == '"' {
			return i - 1
		}
		off = i + 1
	}
}

func (j *Journal) latestSlow(data []byte, agent, id string) (*Record, error) {
	f, err := decode(data, j.Path)
	if err != nil {
		return nil, err
	}
	// As the fast path: a record without a key names no window.
	f.Records = slices.DeleteFunc(f.Records, func(r Record) bool { return r.Key == "" })
	return f.Latest(agent, id), nil
}

// Result says what an Update had to do besides the change.
type Result struct {
	// MovedAside is where a corrupt journal was moved, or "".
	MovedAside string
}

func (j *Journal) now() time.Time { return clock.Or(j.Clock).Now() }

// CorruptCopies lists journals moved aside because they did not parse,
// oldest first, for doctor.
func (j *Journal) CorruptCopies() []string {
	m, _ := userfile.Glob(j.Path + ".corrupt-*")
	sort.Strings(m)
	return m
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
