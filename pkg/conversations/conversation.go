// Package conversations reads the agents' own stores of their
// conversations (claude's transcripts, codex's rollouts, gemini's chats, a
// CLI's own session listing) where their definitions (pkg/agents) say they
// are: whether a conversation is still there, the directory it belongs to,
// the ones a window could have held, how long the agent keeps them.
package conversations

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/recognize"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// Conversation is what the agent's own files say of one conversation.
type Conversation struct {
	// Known: the agent's store was there to look in, so Found means what
	// it says. Not known: nothing is claimed either way.
	Known bool
	Found bool
	// Archived: the agent archived it (not Found); Unarchive is the
	// command that brings it back.
	Archived  bool
	Unarchive []string
	File      string
	// Store is the directory looked in, for messages.
	Store string
	// Dir is the directory the conversation belongs to, as the agent
	// recorded it; "" when the file does not say.
	Dir string
	// Held: the agent's background service runs it now (claude --bg,
	// codex's shared daemon for a run apart from it).
	Held *Held
	// Unchecked: why the agent's files cannot say (the definition's store).
	Unchecked string
}

// WhyGone is what kittymux says of a conversation the agent no longer has.
const WhyGone = "conversation no longer exists"

// Lost says why the agent cannot resume the conversation, "" when it can
// or its files say nothing (not Known).
func (c Conversation) Lost(agent string) string {
	switch {
	case c.Archived:
		return fmt.Sprintf("%s archived it; `%s` brings it back", agent, recognize.Quote(c.Unarchive))
	case c.Known && !c.Found:
		return WhyGone + " (not in " + c.Store + ")"
	}
	return ""
}

// EnvOver reads a variable as an agent run with the assignments env sees
// it: env's own over base.
func EnvOver(env []string, base func(string) string) func(string) string {
	return func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if n, v, ok := strings.Cut(env[i], "="); ok && n == k {
				return v
			}
		}
		return base(k)
	}
}

// cwdScan bounds the reading of a conversation's file for its directory:
// the prompt does this before it asks, so it stays a few small reads.
const (
	cwdScanLines = 64
	cwdScanBytes = 1 << 20
)

// Find looks for the conversation id of agent in the agent's
// files: a glob or two and, when found, the first lines of its file.
// getenv reads the environment the agent would run in (HOME and the
// agent's HomeEnv). It knows nothing of the agent's flags or directory:
// FindRun does.
func Find(s *agents.Set, agent, id string, getenv func(string) string) Conversation {
	return FindRun(s, agent, id, Run{Getenv: getenv})
}

// FindRun is Find for the agent run as r says:
// its flags and directory can move where it keeps conversations.
func FindRun(s *agents.Set, agent, id string, r Run) Conversation {
	a, ok := s.Definition(agent)
	if !ok || a.Conversations == nil || id == "" || strings.ContainsAny(id, `*?[]\/`) {
		return Conversation{}
	}
	st := a.Conversations
	if st.Unchecked != "" {
		return Conversation{Unchecked: st.Unchecked}
	}
	home := home(st, r.Getenv)
	if home == "" || moved(st, home, r) {
		return Conversation{}
	}
	root := filepath.Join(home, st.Root)
	c := Conversation{Store: root}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return c
	}
	c.Known = true
	if f := find(st, root, st.Files, id); f != "" {
		c.Found, c.File = true, f
		c.Dir = recordedDir(f, st.CwdField)
		if c.Dir == "" && st.DirFile != "" {
			c.Dir = dirFile(filepath.Join(filepath.Dir(f), st.DirFile))
		}
		c.Held = heldBy(home, st.Background, id)
		if c.Held == nil {
			if c.Held = heldByShared(agent, f, id, r.Argv); c.Held != nil {
				c.Held.Dir = c.Dir
			}
		}
		return c
	}
	if f := find(st, home, st.Archived, id); f != "" {
		c.Archived, c.File = true, f
		for _, w := range st.Unarchive {
			c.Unarchive = append(c.Unarchive, strings.ReplaceAll(w, agents.IDPlaceholder, id))
		}
	}
	return c
}

// home is the agent's directory: its HomeEnv, else Home under $HOME; ""
// when neither gives an absolute path.
func home(st *agents.Store, getenv func(string) string) string {
	home := ""
	if st.HomeEnv != "" {
		if home = getenv(st.HomeEnv); home != "" && st.HomeEnvSub != "" {
			home = filepath.Join(home, st.HomeEnvSub)
		}
	}
	if home == "" {
		h := getenv("HOME")
		if h == "" || st.Home == "" {
			return ""
		}
		home = filepath.Join(h, st.Home)
	}
	if !filepath.IsAbs(home) {
		return ""
	}
	return home
}

// Kept is how long an agent keeps its conversations before it deletes
// them on its own: Days, read from (or defaulted for) Setting in File.
type Kept struct {
	Agent   string
	Days    int
	File    string
	Setting string
	Default bool // the setting is not set: the agent's default
	// Duration: the setting is a string such as "30d" (Retention.Duration).
	Duration bool
	// Off: the agent's deleting is turned off (OffSetting is false).
	Off        bool
	OffSetting string
	// Count, when not 0, is how many conversations it keeps, the most
	// recent (CountSetting).
	Count        int
	CountSetting string
	Err          error
}

// Retention says how long agent keeps its conversations; ok false when
// its definition does not say it deletes any.
func Retention(s *agents.Set, agent string, getenv func(string) string) (k Kept, ok bool) {
	a, found := s.Definition(agent)
	if !found || a.Conversations == nil || a.Conversations.Retention == nil {
		return Kept{}, false
	}
	st := a.Conversations
	home := home(st, getenv)
	if home == "" {
		return Kept{}, false
	}
	rt := st.Retention
	k = Kept{Agent: agent, Days: rt.DefaultDays, File: filepath.Join(home, rt.Settings), Setting: rt.Key, Default: true,
		Duration: rt.Duration, OffSetting: rt.Enabled, CountSetting: rt.Count}
	data, err := userfile.Read(k.File, agents.SettingsMax)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return k, true
	case err != nil:
		k.Err = err
		return k, true
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		k.Err = fmt.Errorf("%s: %w", k.File, err)
		return k, true
	}
	k.Err = k.read(m, rt)
	return k, true
}

// read fills k from the settings m.
func (k *Kept) read(m map[string]any, rt *agents.Retention) error {
	if v, set := lookup(m, rt.Enabled); set {
		on, ok := v.(bool)
		if !ok {
			return fmt.Errorf("%s: %s is not true or false", k.File, rt.Enabled)
		}
		k.Off = !on
	}
	if v, set := lookup(m, rt.Count); set {
		n, ok := v.(float64)
		if !ok || n < 0 || n != float64(int(n)) {
			return fmt.Errorf("%s: %s is not a count", k.File, rt.Count)
		}
		k.Count = int(n)
	}
	v, set := lookup(m, rt.Key)
	if !set {
		return nil
	}
	days, err := retentionDays(v, rt.Duration)
	if err != nil {
		return fmt.Errorf("%s: %s %w", k.File, rt.Key, err)
	}
	k.Days, k.Default = days, false
	return nil
}

// lookup finds the dot-separated path in m; "" is never set.
func lookup(m map[string]any, path string) (any, bool) {
	if path == "" {
		return nil, false
	}
	var v any = m
	for key := range strings.SplitSeq(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[key]; !ok {
			return nil, false
		}
	}
	return v, true
}

// retentionDays reads a retention setting's value as whole days (a part of
// a day counts as a day): a number of days, or with duration a string of a
// number and its unit (h, d, w, m: 30 days), as gemini reads it.
func retentionDays(v any, duration bool) (int, error) {
	if !duration {
		n, ok := v.(float64)
		if !ok {
			return 0, errors.New("is not a number")
		}
		return int(n), nil
	}
	s, _ := v.(string)
	hours := map[byte]int{'h': 1, 'd': 24, 'w': 7 * 24, 'm': 30 * 24}
	if len(s) < 2 || hours[s[len(s)-1]] == 0 {
		return 0, fmt.Errorf("is not a number and a unit (h, d, w or m): %q", s)
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n <= 0 || s[0] == '+' {
		return 0, fmt.Errorf("is not a number and a unit (h, d, w or m): %q", s)
	}
	h := min(n, 1<<20) * hours[s[len(s)-1]] // ample, and no overflow
	return (h + 23) / 24, nil
}

// recordedDir is the first directory the file's JSON lines record at path
// field; "" when none of its first lines does, or it is not absolute.
func recordedDir(file string, field []string) string {
	if len(field) == 0 {
		return ""
	}
	f, err := userfile.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, cwdScanBytes))
	// The buffer grows to cwdScanBytes as a line needs: a 64 KB one made
	// at once was a large allocation in every restore prompt.
	sc.Buffer(make([]byte, 4<<10), cwdScanBytes)
	for n := 0; n < cwdScanLines && sc.Scan(); n++ {
		var v any
		if json.Unmarshal(sc.Bytes(), &v) != nil {
			continue
		}
		for _, k := range field {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		if d, ok := v.(string); ok && filepath.IsAbs(d) {
			return filepath.Clean(d)
		}
	}
	return ""
}
