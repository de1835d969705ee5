package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"
)

// The journal's log (LogPath, agent-sessions.json.log). An update appends
// one line to it, the records it changed and the keys it dropped, rather
// than writing the whole journal again: 300 records are 110 KB, a change
// is one or two. The journal file is written whole only when the log has
// grown past maxLog (or cannot take the change), and a new, empty log is
// started beside it. So the lock is held for a read of the lines appended
// since the writer last looked and a write of its own; the sync, which
// makes the change durable, is done after the lock is released (each
// writer's sync covers every line appended before its own, so a crash
// leaves the lines of every update that returned).
//
// The journal file names the log that goes with it: "log": N in the file,
// {"log":N} the log's first line. A writer that writes the file whole
// takes the next N, and the new log is renamed into place after the file
// (both synced before their renames): a crash between the two leaves a
// log of an older N, which the file already holds, and which is ignored.
// A reader that reads a log of a newer N than the file it read reads both
// again. A line that is not whole JSON (a write cut short by a crash or a
// full disk) ends the log: the next writer writes over it. A whole line
// that is no update is passed over.

// LogPath is the journal's log of changes (see above).
func (j *Journal) LogPath() string { return j.Path + ".log" }

// maxLog is the size past which an update writes the journal whole and
// starts a new log: 64 KiB, a hundred updates or so, which a reader of
// the journal decodes beside its 110 KB.
const maxLog = 64 << 10

// logEntry is one update: one line of the log.
type logEntry struct {
	// Put are records, each replacing the record of its key where there
	// is one, else added after the others, in order.
	Put []json.RawMessage `json:"put,omitempty"`
	// Drop are keys of records removed.
	Drop []string `json:"drop,omitempty"`
	// Restores is the whole list of restores when the update changed it.
	Restores json.RawMessage `json:"restores,omitempty"`
}

type logHead struct {
	Log uint64 `json:"log"`
}

// logHeader reads the log's first line: the N of the journal file it goes
// with, and where its entries start.
func logHeader(data []byte) (gen uint64, start int, ok bool) {
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return 0, 0, false
	}
	var h logHead
	if json.Unmarshal(data[:i], &h) != nil || h.Log == 0 {
		return 0, 0, false
	}
	return h.Log, i + 1, true
}

func logHeadLine(gen uint64) []byte {
	return fmt.Appendf(nil, "{\"log\":%d}\n", gen)
}

// logLine returns the line of data at off (without its newline) and the
// offset past it; ok is false at the end of the log: no whole line there
// (a write cut short, or nothing), or one that is not JSON.
func logLine(data []byte, off int) (text []byte, next int, ok bool) {
	text, next, ok = lineAt(data, off)
	if !ok || !json.Valid(text) {
		return nil, off, false
	}
	return text, next, true
}

// lineAt returns the line of data at off (without its newline) and the
// offset past it; ok is false when no newline ends one.
func lineAt(data []byte, off int) (text []byte, next int, ok bool) {
	nl := bytes.IndexByte(data[off:], '\n')
	if nl < 0 {
		return nil, off, false
	}
	return data[off : off+nl], off + nl + 1, true
}

// decodeEntry decodes one line of the log: its records, and its restores
// when it has them. ok is false for a line that is no update (passed
// over, never applied in part); whole is false for a line that is not JSON
// at all, where the log ends (the line is checked once, by the decoding).
func decodeEntry(text []byte) (e logEntry, puts []*line, restores []Restore, ok, whole bool) {
	if err := json.Unmarshal(text, &e); err != nil {
		var syntax *json.SyntaxError
		return e, nil, nil, false, !errors.As(err, &syntax)
	}
	for _, raw := range e.Put {
		l := &line{text: string(raw)}
		if json.Unmarshal(raw, &l.rec) != nil || l.rec.Key == "" {
			return e, nil, nil, false, true
		}
		puts = append(puts, l)
	}
	if len(e.Restores) > 0 {
		if json.Unmarshal(e.Restores, &restores) != nil {
			return e, nil, nil, false, true
		}
		if restores == nil {
			restores = []Restore{}
		}
	}
	return e, puts, restores, true, true
}

// state is the journal as a writer last read or wrote it: the records (the
// file's, with the log applied) each with its line of text, the restores,
// and where the log was read to.
type state struct {
	version int
	gen     uint64 // the file's "log"; 0: none (a new file, an older one)
	// laidOut: the file is as encodeFile writes it, so that its lines are
	// known; else it is written whole at the next update.
	laidOut      bool
	lines        []*line
	restores     []Restore
	restoresText string // as encodeRestores writes them
	// file and log are what the journal file and its log were when read
	// (nil: missing); logEnd is where the log's entries applied end.
	file   os.FileInfo
	log    os.FileInfo
	logEnd int
}

// replay applies the log's entries in data, from off on, and returns the
// offset past the last whole line.
func (st *state) replay(data []byte, off int) int {
	var idx map[string]int
	for {
		text, next, ok := lineAt(data, off)
		if !ok {
			return off
		}
		e, puts, restores, ok, whole := decodeEntry(text)
		if !whole {
			return off
		}
		off = next
		if !ok {
			continue
		}
		if idx == nil {
			idx = make(map[string]int, len(st.lines))
			for i, l := range st.lines {
				idx[l.rec.Key] = i
			}
		}
		if len(e.Drop) > 0 {
			drop := make(map[string]bool, len(e.Drop))
			for _, k := range e.Drop {
				drop[k] = true
			}
			kept := st.lines[:0:0]
			for _, l := range st.lines {
				if !drop[l.rec.Key] {
					kept = append(kept, l)
				}
			}
			st.lines = kept
			clear(idx)
			for i, l := range st.lines {
				idx[l.rec.Key] = i
			}
		}
		for _, p := range puts {
			if i, ok := idx[p.rec.Key]; ok {
				st.lines[i] = p
				continue
			}
			idx[p.rec.Key] = len(st.lines)
			st.lines = append(st.lines, p)
		}
		if restores != nil {
			st.restores = restores
			st.restoresText = encodeRestores(restores)
		}
	}
}

// fileOf returns the records and restores of st for an update to change,
// the records in buf's array when it holds them: the last update's, which
// nothing refers to once it is done (Update's fn keeps no record). 300
// records are 150 KB, and a new array each update was most of what the
// collector had to do.
func (st *state) fileOf(buf []Record) *File {
	if cap(buf) < len(st.lines) {
		buf = make([]Record, len(st.lines))
	}
	f := &File{Version: st.version, Log: st.gen, Records: buf[:len(st.lines)]}
	// Copies of the records, sharing nothing with st's: their lists and
	// times are copied into two arrays rather than one allocation each
	// (six a record, 1,800 an update, were a fifth of its time under the
	// lock). Each list is capped at its length, so that an append to it
	// copies it rather than write into the next one's.
	var words, times int
	for _, l := range st.lines {
		r := &l.rec
		words += len(r.Argv) + len(r.Exe) + len(r.Env) + len(r.PreviousIDs)
		if r.ClosedAt != nil {
			times++
		}
		if r.HookAt != nil {
			times++
		}
	}
	ws := make([]string, 0, words)
	ts := make([]time.Time, 0, times)
	list := func(l []string) []string {
		if l == nil {
			return nil
		}
		ws = append(ws, l...)
		return ws[len(ws)-len(l) : len(ws) : len(ws)]
	}
	at := func(t *time.Time) *time.Time {
		if t == nil {
			return nil
		}
		ts = append(ts, *t)
		return &ts[len(ts)-1]
	}
	for i, l := range st.lines {
		r := l.rec
		r.Argv, r.Exe, r.Env, r.PreviousIDs = list(r.Argv), list(r.Exe), list(r.Env), list(r.PreviousIDs)
		r.ClosedAt, r.HookAt = at(r.ClosedAt), at(r.HookAt)
		f.Records[i] = r
	}
	f.Restores = append([]Restore(nil), st.restores...)
	return f
}

// entry returns the log line taking st to f (the records and restores an
// update left), with the lines of f; ok is false when a line cannot say it
// (records reordered, a key twice or none), and the file is then written
// whole. changed says whether f differs from st at all.
func (st *state) entry(f *File) (ent []byte, lines []*line, restoresText string, changed, ok bool, err error) {
	base := st.lines
	lines = make([]*line, len(f.Records))
	var e logEntry
	// The records as they were, in their order, each changed or not, and
	// records added after them: what nearly every update leaves, told
	// without a map. Else, by key.
	n := 0
	for n < len(base) && n < len(f.Records) && base[n].rec.Key == f.Records[n].Key && base[n].rec.Key != "" {
		n++
	}
	if n == len(base) && n == len(f.Records) {
		for i, r := range f.Records {
			if base[i].rec.equal(r) {
				lines[i] = base[i]
				continue
			}
			enc, err := json.Marshal(r)
			if err != nil {
				return nil, nil, "", false, false, fmt.Errorf("encode journal: %w", err)
			}
			lines[i] = &line{text: string(enc), rec: r.clone()}
			e.Put = append(e.Put, enc)
		}
		ent, restoresText, changed, ok, err := st.finish(e, f, true)
		return ent, lines, restoresText, changed, ok, err
	}
	idx := make(map[string]int, len(base))
	ok = true
	for i, l := range base {
		if _, dup := idx[l.rec.Key]; dup || l.rec.Key == "" {
			ok = false
		}
		idx[l.rec.Key] = i
	}
	seen := make(map[string]bool, len(f.Records))
	last, added := -1, false
	for i, r := range f.Records {
		if seen[r.Key] || r.Key == "" {
			ok = false
		}
		seen[r.Key] = true
		if bi, in := idx[r.Key]; in {
			// A record kept stays where it was; one added goes after
			// every record kept, which is where a put puts it.
			if bi < last || added {
				ok, changed = false, true
			}
			last = bi
			if base[bi].rec.equal(r) {
				lines[i] = base[bi]
				continue
			}
		} else {
			added = true
		}
		changed = true
		enc, err := json.Marshal(r)
		if err != nil {
			return nil, nil, "", false, false, fmt.Errorf("encode journal: %w", err)
		}
		lines[i] = &line{text: string(enc), rec: r.clone()}
		e.Put = append(e.Put, enc)
	}
	for _, l := range base {
		if !seen[l.rec.Key] {
			changed = true
			e.Drop = append(e.Drop, l.rec.Key)
		}
	}
	ent, restoresText, changed2, ok, err := st.finish(e, f, ok)
	return ent, lines, restoresText, changed || changed2, ok, err
}

// finish is entry's end: the restores, and the line; changed says whether
// e or the restores change anything.
func (st *state) finish(e logEntry, f *File, ok bool) (ent []byte, restoresText string, changed, _ bool, err error) {
	changed = len(e.Put) > 0 || len(e.Drop) > 0
	restoresText = st.restoresText
	if !slices.Equal(f.Restores, st.restores) {
		// Encoded only when they may have changed: up to 200 of them.
		restoresText = encodeRestores(f.Restores)
	}
	if restoresText != st.restoresText {
		changed = true
		if e.Restores, err = json.Marshal(f.Restores); err != nil {
			return nil, "", false, false, fmt.Errorf("encode journal: %w", err)
		}
		if f.Restores == nil {
			e.Restores = json.RawMessage("[]")
		}
	}
	if !changed || !ok {
		return nil, restoresText, changed, ok, nil
	}
	ent, err = json.Marshal(e)
	if err != nil {
		return nil, "", false, false, fmt.Errorf("encode journal: %w", err)
	}
	return append(ent, '\n'), restoresText, true, true, nil
}

// encodeRestores writes the restores as the journal file holds them: a
// line each, after a newline, comma-separated.
func encodeRestores(rs []Restore) string {
	var b bytes.Buffer
	for i, r := range rs {
		enc, err := json.Marshal(r)
		if err != nil {
			continue // a Restore always encodes
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		b.Write(enc)
	}
	return b.String()
}

// fileHead is how a journal file as kittymux writes it starts.
func fileHead(version int, gen uint64) string {
	return "{\"version\":" + strconv.Itoa(version) + ",\"log\":" + strconv.FormatUint(gen, 10) + ",\"records\":["
}

// headGen reads the "log" of a journal file as kittymux writes it from its
// first bytes; ok is false for a file laid out otherwise.
func headGen(data []byte) (gen uint64, ok bool) {
	rest, ok := bytes.CutPrefix(data, []byte("{\"version\":"+strconv.Itoa(SchemaVersion)+",\"log\":"))
	if !ok {
		return 0, false
	}
	i := bytes.IndexByte(rest, ',')
	if i <= 0 || i > 20 {
		return 0, false
	}
	gen, err := strconv.ParseUint(string(rest[:i]), 10, 64)
	return gen, err == nil && bytes.HasPrefix(rest[i:], []byte(`,"records":[`))
}

// entries returns the log's entries in logData when its first line names
// gen, the journal file's N; nil otherwise, and newer says the log is of a
// later N than the file (a writer wrote the file whole between the reads
// of the two: read them again).
func entries(logData []byte, gen uint64) (ents []byte, newer bool) {
	lg, start, ok := logHeader(logData)
	switch {
	case !ok || lg < gen:
		return nil, false
	case lg > gen:
		return nil, true
	}
	return logData[start:], false
}
