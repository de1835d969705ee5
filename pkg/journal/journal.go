// Package journal keeps agent-sessions.json: one record per agent session
// the scanner has seen, with its conversation id where the agent's own
// records give it, how long it worked and how it ended.
//
// Several writers share the file (a scanner, commands, a second scanner of
// another login): every change is a read-modify-write under a lock on a
// sibling lock file, appended as one line to the journal's log of changes,
// and now and then the whole written by atomic rename (log.go), so a reader
// never sees a torn journal and no writer's change is lost. Agents' hooks,
// which cannot wait long, queue what they could not write in a spool the
// next writer merges (queues.go, pkg/spool).
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
// Version 2 added the log of changes (log.go): an older kittymux, which
// would not read it, leaves such a journal alone.
const SchemaVersion = 2

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
	Version int `json:"version"`
	// Log names the log of changes that goes with the file (log.go);
	// Read has applied it.
	Log     uint64   `json:"log,omitempty"`
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
	// st is the journal as an update of this Journal last read or wrote
	// it. Its lines are shared between versions: never changed.
	st *state
	// scratch is the array the last update gave fn its records in, for
	// the next to give them in again.
	scratch []Record
	// shared and sharedLog are the file and its log as the lookups
	// (LatestOf, MayHaveLeft) last read them, with what they were then
	// (readShared).
	shared, sharedLog         []byte
	sharedInfo, sharedLogInfo os.FileInfo
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
// ever replaced whole and its log only appended to, so any read sees one
// complete version. Hook events still waiting in the spool are applied to
// what is returned (see AddHook). A missing file is an empty journal; a
// corrupt one is an error (writers move it aside); anything but a regular
// file is refused without blocking.
func (j *Journal) Read() (*File, error) {
	// The queue is read before the journal: an outcome a writer moves in
	// between is then read twice (and kept once), never missed.
	pending, _ := j.readQueue()
	var f *File
	err := j.hookSpool().With(func(spool []byte) error {
		var err error
		if f, err = j.readFile(); err != nil {
			return err
		}
		applySpool(f, spool)
		// So are the restore prompts' queued outcomes (QueueRestore).
		f.Restores = mergeRestores(f.Restores, pending)
		return nil
	})
	return f, err
}

// readFile reads the journal file and applies its log.
func (j *Journal) readFile() (*File, error) {
	data, logData, err := j.readPair()
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Version: SchemaVersion}, nil
	}
	if err != nil {
		return nil, err
	}
	f, err := decode(data, j.Path)
	if err != nil {
		return nil, err
	}
	if f.Log > 0 {
		ents, _ := entries(logData, f.Log)
		applyLog(f, ents)
	}
	return f, nil
}

// readPair reads the journal file, then its log (nil when there is none).
// A log newer than the file read means a writer wrote the file whole in
// between: both are read again.
func (j *Journal) readPair() (data, logData []byte, err error) {
	for attempt := 0; ; attempt++ {
		if data, err = readJournal(j.Path); err != nil {
			return nil, nil, err
		}
		logData, err = readJournal(j.LogPath())
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		gen := fileGen(data)
		if _, newer := entries(logData, gen); gen == 0 || !newer || attempt == 3 {
			return data, logData, nil
		}
	}
}

// fileGen is the "log" a journal file names; 0 when it names none (or does
// not parse, which its decoder says).
func fileGen(data []byte) uint64 {
	if gen, ok := headGen(data); ok {
		return gen
	}
	var head struct {
		Log uint64 `json:"log"`
	}
	_ = json.Unmarshal(data, &head)
	return head.Log
}

// applyLog applies the log's entries to f.
func applyLog(f *File, ents []byte) {
	if len(ents) == 0 {
		return
	}
	st := &state{lines: make([]*line, len(f.Records)), restores: f.Restores}
	for i := range f.Records {
		st.lines[i] = &line{rec: f.Records[i]}
	}
	st.replay(ents, 0)
	f.Records = make([]Record, len(st.lines))
	for i, l := range st.lines {
		f.Records[i] = l.rec
	}
	f.Restores = st.restores
}

// readShared reads the file and its log for the lookups that only read
// them (LatestOf, MayHaveLeft): while both are the same (inode, size and
// time of modification), the bytes read before. A restore prompt asks of
// one journal more than once before its exec, and a journal of 300 records
// is 110 KB. Writers rename a new file over the journal, and append to the
// log; a Journal that reads this way lives for one prompt's run.
func (j *Journal) readShared() (data, logData []byte, err error) {
	st, err := os.Stat(j.Path)
	lst, lerr := os.Stat(j.LogPath())
	j.mu.Lock()
	defer j.mu.Unlock()
	if err == nil && sameInfo(st, j.sharedInfo) && (lerr != nil && j.sharedLogInfo == nil || lerr == nil && sameInfo(lst, j.sharedLogInfo)) {
		return j.shared, j.sharedLog, nil
	}
	j.shared, j.sharedLog, j.sharedInfo, j.sharedLogInfo = nil, nil, nil, nil
	if data, logData, err = j.readPair(); err != nil {
		return nil, nil, err
	}
	// Kept with what the files were before they were read: one changed in
	// between reads as changed next time, and is read again.
	j.shared, j.sharedInfo = data, st
	if lerr == nil {
		j.sharedLog, j.sharedLogInfo = logData, lst
	}
	return data, logData, nil
}

func sameInfo(a, b os.FileInfo) bool {
	return b != nil && os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
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
// writes the change: one line appended to the journal's log, or the journal
// written whole (log.go), atomically through statefile (a state directory
// that is a symbolic link is refused). A corrupt journal is moved aside
// (kept, named agent-sessions.json.corrupt-<time>, its log beside it) and fn
// starts from an empty one; the returned Result says so. fn returning an
// error writes nothing, and so does a change that leaves every record as it
// was. fn must keep neither f nor its records past its return (a copy of a
// record is the caller's): the next update gives its records in the same
// array.
//
// The lock is held from the read to the write, so every writer waits for
// the one before: the time it is held is kept short. It reads only the
// lines other writers appended to the log since this Journal last looked,
// and writes only the records fn changed: an update costs the records it
// changes, not all 300.
func (j *Journal) Update(fn func(*File) error) (Result, error) {
	return j.UpdateContext(context.Background(), fn)
}

// UpdateContext is Update that waits for the lock only until ctx ends (a
// hook must never hold up its agent); a ctx that never ends waits as long
// as it takes.
//
// The log is synced after the lock is released: the next writer does not
// wait for that sync, and Update still returns only once the change is
// durable (a sync covers every line written before it, its own included).
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
// nothing is left to sync); every lock is released when it returns.
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
	// The journal file and its log as read, closed after the lock (the log
	// by the sync, when it was written): a rename that unlinks the file
	// then frees nothing, which is work no other writer need wait for.
	var old, logf *os.File
	defer func() {
		if old != nil {
			old.Close()
		}
		if logf != nil {
			logf.Close()
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
	st, err := j.readState(dir, &old, &logf)
	var ce *CorruptError
	switch {
	case errors.As(err, &ce):
		aside := fmt.Sprintf("%s.corrupt-%s", j.Path, j.now().UTC().Format("20060102T150405.000000000"))
		if err := os.Rename(j.Path, aside); err != nil {
			return res, nil, fmt.Errorf("move corrupt journal aside: %w", err)
		}
		// Its log goes with it: what it says is of that file.
		if err := os.Rename(j.LogPath(), aside+".log"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return res, nil, fmt.Errorf("move corrupt journal aside: %w", err)
		}
		res.MovedAside = aside
		st = &state{version: SchemaVersion}
	case err != nil:
		j.st = nil
		return res, nil, err
	}
	f := st.fileOf(j.scratch)
	j.scratch = f.Records
	applySpool(f, hook.Lines())
	if err := fn(f); err != nil {
		return res, nil, err
	}
	// Outcomes the restore prompts queued come in with any update.
	pending, queued := j.readQueue()
	f.Restores = mergeRestores(f.Restores, pending)
	f.Version = SchemaVersion
	Bound(f, j.now())
	ent, lines, restoresText, changed, ok, err := st.entry(f)
	if err != nil {
		return res, nil, err
	}
	current := st.laidOut && st.version == SchemaVersion && st.gen > 0 && res.MovedAside == ""
	if !changed && current {
		hook.Drop(len(hook.Lines()))
		j.dropQueued(dir, queued)
		return res, nil, nil
	}
	var sync func() error
	if ok && current && st.log != nil && st.logEnd+len(ent) <= maxLog {
		// The change, as one line of the log.
		if err := appendLog(logf, st, ent); err != nil {
			j.st = nil
			return res, nil, fmt.Errorf("write journal log: %w", err)
		}
		next := *st
		next.lines, next.restores, next.restoresText = lines, f.Restores, restoresText
		next.logEnd += len(ent)
		j.st = &next
		lf := logf
		logf = nil
		sync = func() error {
			defer lf.Close()
			return lf.Sync()
		}
	} else if err := j.writeWhole(dir, st, f, lines, restoresText); err != nil {
		j.st = nil
		return res, nil, fmt.Errorf("write journal: %w", err)
	}
	hook.Drop(len(hook.Lines()))
	j.dropQueued(dir, queued)
	return res, sync, nil
}

// appendLog writes ent where st's log ends, over what a write cut short
// left there.
func appendLog(logf *os.File, st *state, ent []byte) error {
	if st.log.Size() > int64(st.logEnd) {
		if err := logf.Truncate(int64(st.logEnd)); err != nil {
			return err
		}
	}
	_, err := logf.WriteAt(ent, int64(st.logEnd))
	return err
}

// writeWhole writes f as the journal file, naming the next log, and starts
// that log, empty. Each is synced before its rename, and the directory
// after each: the file must be durable before its old log is replaced (the
// old log's changes are in no other file), and the new log's name before
// the lock is released (the next writer's change goes to it and is synced
// there alone). It runs once in maxLog of changes.
func (j *Journal) writeWhole(dir *statefile.Dir, st *state, f *File, lines []*line, restoresText string) error {
	gen := st.gen + 1
	if st.gen == 0 {
		// A new journal's first log: a number no journal at this path had
		// (one removed, then made again, starts from another), for
		// readState to tell files apart by.
		gen = uint64(time.Now().UnixNano())
	}
	data := encodeFile(f.Version, gen, lines, restoresText)
	for _, w := range []struct {
		name string
		data []byte
	}{{filepath.Base(j.Path), data}, {filepath.Base(j.LogPath()), logHeadLine(gen)}} {
		p, err := dir.Prepare(w.name)
		if err != nil {
			return err
		}
		sync, err := p.Replace(w.data)
		if err != nil {
			return err
		}
		if err := sync(); err != nil {
			return err
		}
	}
	// What was written is what the next update of this Journal reads: its
	// lines are matched against these, and not decoded again.
	j.st = &state{version: f.Version, gen: gen, lines: lines, restoresText: restoresText}
	return nil
}

// line is one record as read, with the text it was decoded from.
type line struct {
	text string
	rec  Record
}

// readState reads the journal for an update, under its lock: the file
// and the log applied over it. While the file is the one this Journal
// read last, and the log too, only what was appended to the log since is
// read. The file is left open in *old, the log in *logf (for the update
// to append to).
func (j *Journal) readState(dir *statefile.Dir, old, logf **os.File) (*state, error) {
	lf, err := dir.OpenInPlace(filepath.Base(j.LogPath()), os.O_RDWR)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read journal log: %w", err)
	}
	var li os.FileInfo
	if lf != nil {
		*logf = lf
		if li, err = lf.Stat(); err != nil {
			return nil, fmt.Errorf("read journal log: %w", err)
		}
	}
	jf, err := userfile.Open(j.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return &state{version: SchemaVersion}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read journal %s: %w", j.Path, err)
	}
	*old = jf
	fi, err := jf.Stat()
	if err != nil {
		return nil, fmt.Errorf("read journal %s: %w", j.Path, err)
	}
	// The same file: its inode, size and time (a freed inode is used
	// again, and a time is of the clock's tick), and the log it names,
	// which changes with each whole write.
	if c := j.st; c != nil && c.file != nil && sameInfo(fi, c.file) && headGenOf(jf) == c.gen && li != nil &&
		c.log != nil && os.SameFile(li, c.log) && li.Size() >= int64(c.logEnd) {
		tail := make([]byte, li.Size()-int64(c.logEnd))
		if _, err := lf.ReadAt(tail, int64(c.logEnd)); err != nil {
			return nil, fmt.Errorf("read journal log: %w", err)
		}
		st := *c
		st.lines = slices.Clone(c.lines)
		st.log = li
		st.logEnd += st.replay(tail, 0)
		return &st, nil
	}
	data, err := userfile.ReadOpen(jf, MaxSize)
	if err != nil {
		return nil, fmt.Errorf("read journal %s: %w", j.Path, err)
	}
	st, err := j.decodeFile(data)
	if err != nil {
		return nil, err
	}
	st.file = fi
	if lf != nil && st.gen > 0 {
		ldata, err := userfile.ReadOpen(lf, MaxSize)
		if err != nil {
			return nil, fmt.Errorf("read journal log: %w", err)
		}
		if lg, start, ok := logHeader(ldata); ok && lg == st.gen {
			st.log = li
			st.logEnd = st.replay(ldata, start)
		}
	}
	return st, nil
}

// headGenOf reads the "log" of the journal file f from its first bytes; 0
// when it has none.
func headGenOf(f *os.File) uint64 {
	var b [64]byte
	n, _ := f.ReadAt(b[:], 0)
	gen, _ := headGen(b[:n])
	return gen
}

// decodeFile decodes the journal file for an update: its records, each
// with the line it came from, and its restores. Lines decoded by an
// earlier update of this Journal are taken from it rather than decoded
// again. A file not laid out a record a line is decoded whole, and its
// lines are encoded.
func (j *Journal) decodeFile(data []byte) (*state, error) {
	var prev []*line
	if j.st != nil {
		prev = j.st.lines
	}
	gen, ok := headGen(data)
	var body, restores []byte
	if ok {
		body = data[len(fileHead(SchemaVersion, gen)):]
		body, ok = bytes.CutSuffix(body, []byte("\n]}\n"))
	}
	if ok {
		// A record is one line of JSON: none starts a line with "]".
		if i := bytes.Index(body, []byte(restoresHead)); i >= 0 {
			body, restores = body[:i], body[i+len(restoresHead):]
		}
	}
	st := &state{version: SchemaVersion, gen: gen, laidOut: true, restoresText: string(restores)}
	if ok && len(restores) > 0 {
		ok = json.Unmarshal(append(append([]byte("["), restores...), ']'), &st.restores) == nil
	}
	n := bytes.Count(body, []byte(",\n")) + 1
	st.lines = make([]*line, 0, n)
	k := 0
	for raw := range bytes.SplitSeq(body, []byte(",\n")) {
		if !ok {
			break
		}
		raw = bytes.TrimPrefix(raw, []byte("\n"))
		if len(raw) == 0 {
			// No records, or an empty element (a comma too many: not
			// valid JSON, which the whole decode says).
			ok = len(body) == 0
			continue
		}
		l := match(prev, &k, raw)
		if l == nil {
			l = &line{text: string(raw)}
			// Not our layout after all (a record spanning lines): the
			// whole decode says whether it is corrupt.
			ok = json.Unmarshal(raw, &l.rec) == nil
		}
		st.lines = append(st.lines, l)
	}
	if ok {
		return st, nil
	}
	f, err := decode(data, j.Path)
	if err != nil {
		return nil, err
	}
	st = &state{version: f.Version, gen: f.Log, restores: f.Restores, restoresText: encodeRestores(f.Restores)}
	for _, r := range f.Records {
		enc, err := json.Marshal(r)
		if err != nil {
			return nil, fmt.Errorf("encode journal: %w", err)
		}
		st.lines = append(st.lines, &line{text: string(enc), rec: r})
	}
	return st, nil
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

// encodeFile encodes the journal file: a record a line (lines, each with
// its text), then the restores (as encodeRestores writes them).
func encodeFile(version int, gen uint64, lines []*line, restores string) []byte {
	var b bytes.Buffer
	b.Grow(len(lines)*512 + len(restores) + 64)
	b.WriteString(fileHead(version, gen))
	for i, l := range lines {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		b.WriteString(l.text)
	}
	if restores != "" {
		b.WriteString(restoresHead)
		b.WriteString(restores)
	}
	b.WriteString("\n]}\n")
	return b.Bytes()
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
// prompt asks in every restored window: no full decode of 300 records), and
// of its log those that name the id or the key of one of them. A file not
// laid out a record a line is read whole.
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
	data, logData, err := j.readShared()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	gen, laidOut := headGen(data)
	if !laidOut {
		return j.latestSlow(data, logData, agent, id)
	}
	ents, _ := entries(logData, gen)
	quoted, _ := json.Marshal(id)
	if indexQuoted(data, quoted) < 0 && indexQuoted(ents, quoted) < 0 {
		return nil, nil
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
		if bytes.HasPrefix(line, []byte(`{"at":`)) {
			continue // a restore's line
		}
		// A record's line starts with its key; any other line (records
		// written on one line by hand) is read whole.
		var r Record
		if !bytes.HasPrefix(line, []byte(`{"key":`)) || json.Unmarshal(line, &r) != nil {
			return j.latestSlow(data, logData, agent, id)
		}
		if r.Key != "" { // a record without a key names no window
			f.Records = append(f.Records, r)
		}
	}
	f.Records = logFor(f.Records, ents, quoted, id)
	return f.Latest(agent, id), nil
}

// logFor applies the log's entries to recs, the records of the journal
// file that name id, as far as they concern them: the lines that name id,
// or the key of one of recs. A put of a key among recs replaces the last
// record of it (as a replay does), a put of another key that names id
// joins them; a drop removes every record of its key.
func logFor(recs []Record, ents, quoted []byte, id string) []Record {
	// Each text looked for is looked for once along the log, not again
	// on each line: at is where it is next, from the line read on.
	type needle struct {
		q  []byte
		at int
	}
	needles := []*needle{{q: quoted, at: -1}}
	for _, r := range recs {
		k, _ := json.Marshal(r.Key)
		needles = append(needles, &needle{q: k, at: -1})
	}
	// The lines passed over are checked to be whole (else the log ends
	// there, as a replay says) only when a line that concerns recs comes
	// after them: the JSON check is most of the time a lookup takes.
	checked := 0
	for off := 0; ; {
		nl := bytes.IndexByte(ents[off:], '\n')
		if nl < 0 {
			return recs
		}
		text, next := ents[off:off+nl], off+nl+1
		relevant := false
		for _, n := range needles {
			if n.at < off {
				n.at = len(ents)
				if i := indexQuoted(ents[off:], n.q); i >= 0 {
					n.at = off + i
				}
			}
			if n.at < next {
				relevant = true
				break
			}
		}
		if !relevant {
			off = next
			continue
		}
		for checked < off {
			var ok bool
			if _, checked, ok = logLine(ents, checked); !ok {
				return recs
			}
		}
		e, puts, _, ok, whole := decodeEntry(text)
		if !whole {
			return recs
		}
		checked, off = next, next
		if !ok {
			continue
		}
		for _, k := range e.Drop {
			recs = slices.DeleteFunc(recs, func(r Record) bool { return r.Key == k })
		}
	puts:
		for _, p := range puts {
			for i := len(recs) - 1; i >= 0; i-- {
				if recs[i].Key == p.rec.Key {
					recs[i] = p.rec
					continue puts
				}
			}
			if p.rec.ID == id {
				k, _ := json.Marshal(p.rec.Key)
				recs = append(recs, p.rec)
				needles = append(needles, &needle{q: k, at: -1})
			}
		}
	}
}

// MayHaveLeft reports whether a process of the journal may have left
// conversation id (it is among some record's previous ids), reading the
// bytes of the file and its log only: false means surely not, so a restore
// prompt resuming id need not decode the journal to follow where it went.
func (j *Journal) MayHaveLeft(id string) bool {
	if id == "" || j.Off {
		return false
	}
	if j.hookSpool().Waiting() {
		return true
	}
	data, logData, err := j.readShared()
	if err != nil {
		return false
	}
	gen, laidOut := headGen(data)
	if !laidOut {
		return true // not as kittymux writes it: the decoder will tell
	}
	ents, _ := entries(logData, gen)
	quoted, _ := json.Marshal(id)
	return inPreviousIDs(data, quoted) || inPreviousIDs(ents, quoted)
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

func (j *Journal) latestSlow(data, logData []byte, agent, id string) (*Record, error) {
	f, err := decode(data, j.Path)
	if err != nil {
		return nil, err
	}
	if f.Log > 0 {
		ents, _ := entries(logData, f.Log)
		applyLog(f, ents)
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
	// The log moved aside with one (.log) is not a journal of its own.
	m = slices.DeleteFunc(m, func(p string) bool { return strings.HasSuffix(p, ".log") })
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
		// Of two seen at once, the one of the greater key: the same
		// whichever order the records are in.
		if best == nil || r.LastSeen.After(best.LastSeen) || r.LastSeen.Equal(best.LastSeen) && r.Key > best.Key {
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
