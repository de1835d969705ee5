package conversations

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// Bounds of what a listing reads of the agent's files.
const (
	maxCandidateFiles = 2000
	candidateBytes    = 8 << 20
	candidateLine     = 4 << 20
	// MaxCandidates is how many the choosing prompt shows: keys 1 to 9.
	MaxCandidates = 9
)

// listTimeout bounds a run of an agent's CLI that lists its conversations;
// listTries is how many runs are tried (several restored windows list at
// once, and a CLI can find its database busy).
const (
	listTimeout = 20 * time.Second
	listTries   = 3
)

// ListCandidates runs the agent's CLI (program, as the prompt would exec
// it, with env, in dir) to list its conversations, and keeps those of dir
// last written since since, newest first, at most MaxCandidates. Its
// output is read bounded and only as data: what a line shows chooses
// nothing. The error says why the CLI gave no list.
func ListCandidates(s *agents.Set, agent, program, dir string, since time.Time, env []string) ([]agents.Candidate, error) {
	c := agents.CodeOf(agent)
	a, ok := s.Definition(agent)
	if !ok || c == nil || c.Lister == nil || program == "" || a.IDPattern == "" {
		return nil, errors.New("no way to list its conversations")
	}
	idRE, err := regexp.Compile("^(?:" + a.IDPattern + ")$")
	if err != nil {
		return nil, err
	}
	var out []byte
	for try := 1; ; try++ {
		if out, err = runList(program, c.Lister.Args, dir, env); err == nil || try == listTries || errors.Is(err, errTooMuch) {
			break
		}
		time.Sleep(time.Duration(try) * 500 * time.Millisecond)
	}
	if err != nil {
		return nil, err
	}
	var keep []agents.Candidate
	for _, cand := range c.Lister.Parse(out) {
		if idRE.MatchString(cand.ID) && cand.Dir != "" && filepath.Clean(cand.Dir) == filepath.Clean(dir) && !cand.Modified.Before(since) {
			keep = append(keep, cand)
		}
	}
	slices.SortStableFunc(keep, func(x, y agents.Candidate) int { return y.Modified.Compare(x.Modified) })
	return keep[:min(len(keep), MaxCandidates)], nil
}

var errTooMuch = errors.New("it printed more than a list")

// runList runs program with args once, bounded in time and output.
func runList(program string, args []string, dir string, env []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir, cmd.Env = dir, env
	agents.KillGroup(cmd) // opencode's node wrapper leaves a native child
	cmd.WaitDelay = time.Second
	var out boundedBuffer
	var stderr boundedBuffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := cmd.Run()
	switch {
	case out.over:
		return nil, errTooMuch
	case ctx.Err() != nil:
		return nil, fmt.Errorf("no list within %s", listTimeout)
	case err != nil:
		last := strings.TrimSpace(string(stderr.b))
		if i := strings.LastIndexByte(last, '\n'); i >= 0 {
			last = last[i+1:]
		}
		return nil, fmt.Errorf("%v: %.200s", err, last)
	}
	return out.b, nil
}

// boundedBuffer keeps at most candidateBytes of what is written to it.
type boundedBuffer struct {
	b    []byte
	over bool
}

func (w *boundedBuffer) Write(p []byte) (int, error) {
	if len(w.b)+len(p) > candidateBytes {
		w.over = true
		return 0, errors.New("too much output")
	}
	w.b = append(w.b, p...)
	return len(p), nil
}

// Candidates lists the conversations of agent that belong to dir and were
// written to at or after since (the window's agent process started; zero:
// not known), newest first, at most MaxCandidates.
func Candidates(s *agents.Set, agent, dir string, since time.Time, getenv func(string) string) []agents.Candidate {
	a, ok := s.Definition(agent)
	if !ok || !s.Chooses(agent) {
		return nil
	}
	st := a.Conversations
	home := home(st, getenv)
	if home == "" {
		return nil
	}
	root := filepath.Join(home, st.Root)
	// Newest first by the files' times (a stat each), read only until
	// nine of dir's are found.
	type file struct {
		path, pat string
		mod       time.Time
	}
	var files []file
	seen := map[string]bool{}
	for _, pat := range st.Files {
		paths, _ := userfile.Glob(filepath.Join(root, strings.NewReplacer(agents.IDPlaceholder, "*", "{id8}", "*").Replace(pat)))
		if len(paths) > maxCandidateFiles {
			paths = paths[len(paths)-maxCandidateFiles:]
		}
		for _, f := range paths {
			fi, err := os.Lstat(f)
			if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Before(since) || seen[f] {
				continue
			}
			seen[f] = true
			files = append(files, file{f, pat, fi.ModTime()})
		}
	}
	slices.SortStableFunc(files, func(x, y file) int { return y.mod.Compare(x.mod) })
	var out []agents.Candidate
	for _, f := range files {
		if len(out) == MaxCandidates {
			break
		}
		if c, ok := candidate(st, f.path, f.pat, a.IDPattern, dir); ok {
			c.Modified = f.mod
			out = append(out, c)
		}
	}
	return out
}

// candidate reads one conversation's file: its id, its directory (which
// must be dir) and the user's messages.
func candidate(st *agents.Store, file, pat, idPattern, dir string) (agents.Candidate, bool) {
	c := agents.Candidate{File: file}
	if len(st.IDField) == 0 {
		c.ID = idFromName(filepath.Base(file), filepath.Base(pat), idPattern)
	}
	d := recordedDir(file, st.CwdField)
	if d == "" && st.DirFile != "" {
		d = dirFile(filepath.Join(filepath.Dir(file), st.DirFile))
	}
	if d == "" || filepath.Clean(d) != filepath.Clean(dir) {
		return c, false
	}
	// A FIFO put where a conversation file goes is refused, not waited on.
	f, err := userfile.Open(file)
	if err != nil {
		return c, false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, candidateBytes))
	sc.Buffer(make([]byte, 64<<10), candidateLine)
	for first := true; sc.Scan(); first = false {
		var v any
		if json.Unmarshal(sc.Bytes(), &v) != nil {
			continue
		}
		if first && len(st.IDField) > 0 {
			c.ID, _ = at(v, strings.Join(st.IDField, ".")).(string)
		}
		if text, ok := userText(st.UserMessages, v); ok {
			if c.Turns++; c.First == "" {
				c.First = text
			}
		}
	}
	return c, c.ID != "" && !strings.ContainsAny(c.ID, `*?[]\/`)
}

// text is the user's message a line holds, if it holds one.
func userText(m *agents.MessageSpec, v any) (string, bool) {
	for _, kv := range m.Match {
		path, want, _ := strings.Cut(kv, "=")
		if got, _ := at(v, path).(string); got != want {
			return "", false
		}
	}
	var text string
	switch t := at(v, m.Text).(type) {
	case string:
		text = t
	case []any:
		var parts []string
		for _, p := range t {
			if s, ok := at(p, "text").(string); ok {
				parts = append(parts, s)
			}
		}
		text = strings.Join(parts, " ")
	}
	text = strings.TrimSpace(text)
	if text == "" || m.SkipPrefix != "" && strings.HasPrefix(text, m.SkipPrefix) {
		return "", false
	}
	return text, true
}

// at is the value at a dot-separated path of JSON objects.
func at(v any, path string) any {
	for k := range strings.SplitSeq(path, ".") {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

// idFromName takes the id out of a file's name by its pattern, the id being
// what the agent's id pattern matches where the pattern says {id}.
func idFromName(name, pat, idPattern string) string {
	if !strings.Contains(pat, agents.IDPlaceholder) || idPattern == "" {
		return ""
	}
	before, after, _ := strings.Cut(pat, agents.IDPlaceholder)
	glob := func(s string) string { return strings.ReplaceAll(regexp.QuoteMeta(s), `\*`, `.*?`) }
	re, err := regexp.Compile("^" + glob(before) + "(" + idPattern + ")" + glob(after) + "$")
	if err != nil {
		return ""
	}
	if m := re.FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return ""
}
