package agents

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

	"github.com/kittymux/kittymux/pkg/userfile"
)

// Store says where an agent keeps its conversations on disk, so that a
// resume is offered only for a conversation the agent still has (claude
// deletes transcripts older than cleanupPeriodDays, codex archives threads,
// a user deletes a file) and runs in the directory the conversation
// belongs to. It is the agent's data, next to its flags in
// resume-agents.json; one lookup interprets every agent's.
type Store struct {
	// HomeEnv names the variable that moves the agent's directory
	// (CLAUDE_CONFIG_DIR, CODEX_HOME); Home is that directory under $HOME
	// otherwise (".claude").
	HomeEnv string `json:"home_env,omitempty"`
	Home    string `json:"home"`
	// HomeEnvSub is the agent's directory under HomeEnv's, where that
	// variable moves the home directory rather than the agent's own
	// (gemini's GEMINI_CLI_HOME, .gemini under it).
	HomeEnvSub string `json:"home_env_sub,omitempty"`
	// Root is the directory under the agent's that holds the conversations.
	// Only when it exists does a missing conversation count as gone: an
	// agent whose files kittymux cannot see is never said to have lost one.
	Root string `json:"root"`
	// Files are glob patterns under Root naming one conversation's file;
	// {id} is its id, {id8} its first 8 characters (gemini's file names).
	Files []string `json:"files"`
	// IDField is the JSON path, in the first line of a conversation's
	// file, of its whole id: set, a file counts only when it says the id
	// (a pattern with {id8} names others too).
	IDField []string `json:"id_field,omitempty"`
	// DirFile is a file, relative to the directory of the conversation's
	// file, holding the directory the conversation belongs to (gemini's
	// ../.project_root), where the file itself does not say it.
	DirFile string `json:"dir_file,omitempty"`
	// MovedBy is what else puts the agent's conversations somewhere Root
	// does not name; when any of it is set nothing is claimed (where.go).
	MovedBy *MovedBy `json:"moved_by,omitempty"`
	// Unchecked says why kittymux cannot check the agent's conversations
	// (opencode keeps them in a database): the prompt says so, and the
	// rest of the entry is empty.
	Unchecked string `json:"unchecked,omitempty"`
	// Archived are glob patterns under the agent's directory where it keeps
	// conversations it archived: found there, the conversation is gone
	// until Unarchive (its words, {id} the id) brings it back.
	Archived  []string `json:"archived,omitempty"`
	Unarchive []string `json:"unarchive,omitempty"`
	// CwdField is the JSON path, in a line of the conversation's file, of
	// the directory it belongs to (claude ["cwd"], codex ["payload",
	// "cwd"]); empty: not recorded.
	CwdField []string `json:"cwd_field,omitempty"`
	// Retention is how long the agent keeps a conversation before it
	// deletes it on its own, where it says so.
	Retention *Retention `json:"retention,omitempty"`
	// Background: the agent's own service may run a conversation (held.go).
	Background *Background `json:"background,omitempty"`
	// UserMessages: which lines of a conversation's file are the user's
	// messages (candidates.go); set, the user can choose among the
	// conversations a window could have held.
	UserMessages *MessageSpec `json:"user_messages,omitempty"`
}

// Retention: the agent deletes conversations older than what it reads at
// Key in Settings (a JSON file under the agent's directory), DefaultDays
// when unset. Key, Enabled and Count are paths of keys, dot-separated
// (gemini's "general.sessionRetention.maxAge").
type Retention struct {
	Settings    string `json:"settings"`
	Key         string `json:"key"`
	DefaultDays int    `json:"default_days"`
	// Duration: the value is a string, a number and a unit (h, d, w, or
	// m for 30 days: gemini's "30d"), not a number of days.
	Duration bool `json:"duration,omitempty"`
	// Enabled is a boolean setting that turns the deleting off when false.
	Enabled string `json:"enabled,omitempty"`
	// Count is a number setting: when set, the agent keeps only that many
	// conversations, the most recent, whatever their age.
	Count string `json:"count,omitempty"`
}

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
	// Unchecked: why the agent's files cannot say (the Store's).
	Unchecked string
}

// WhyGone is what kittymux says of a conversation the agent no longer has.
const WhyGone = "conversation no longer exists"

// Lost says why the agent cannot resume the conversation, "" when it can
// or its files say nothing (not Known).
func (c Conversation) Lost(agent string) string {
	switch {
	case c.Archived:
		return fmt.Sprintf("%s archived it; `%s` brings it back", agent, Quote(c.Unarchive))
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

// FindConversation looks for the conversation id of agent in the agent's
// files: a glob or two and, when found, the first lines of its file.
// getenv reads the environment the agent would run in (HOME and the
// agent's HomeEnv). It knows nothing of the agent's flags or directory:
// FindConversationRun does.
func (s *Set) FindConversation(agent, id string, getenv func(string) string) Conversation {
	return s.FindConversationRun(agent, id, Run{Getenv: getenv})
}

// FindConversationRun is FindConversation for the agent run as r says:
// its flags and directory can move where it keeps conversations.
func (s *Set) FindConversationRun(agent, id string, r Run) Conversation {
	a, ok := s.agent(agent)
	if !ok || a.def.Conversations == nil || id == "" || strings.ContainsAny(id, `*?[]\/`) {
		return Conversation{}
	}
	st := a.def.Conversations
	if st.Unchecked != "" {
		return Conversation{Unchecked: st.Unchecked}
	}
	home := st.home(r.Getenv)
	if home == "" || st.moved(home, r) {
		return Conversation{}
	}
	root := filepath.Join(home, st.Root)
	c := Conversation{Store: root}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return c
	}
	c.Known = true
	if f := st.find(root, st.Files, id); f != "" {
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
	if f := st.find(home, st.Archived, id); f != "" {
		c.Archived, c.File = true, f
		for _, w := range st.Unarchive {
			c.Unarchive = append(c.Unarchive, strings.ReplaceAll(w, idPlaceholder, id))
		}
	}
	return c
}

// home is the agent's directory: its HomeEnv, else Home under $HOME; ""
// when neither gives an absolute path.
func (st *Store) home(getenv func(string) string) string {
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
func (s *Set) Retention(agent string, getenv func(string) string) (k Kept, ok bool) {
	a, found := s.agent(agent)
	if !found || a.def.Conversations == nil || a.def.Conversations.Retention == nil {
		return Kept{}, false
	}
	st := a.def.Conversations
	home := st.home(getenv)
	if home == "" {
		return Kept{}, false
	}
	rt := st.Retention
	k = Kept{Agent: agent, Days: rt.DefaultDays, File: filepath.Join(home, rt.Settings), Setting: rt.Key, Default: true,
		Duration: rt.Duration, OffSetting: rt.Enabled, CountSetting: rt.Count}
	data, err := userfile.Read(k.File, settingsMax)
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
func (k *Kept) read(m map[string]any, rt *Retention) error {
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

// checkStore validates a definition's conversations entry.
func checkStore(st *Store) (field, msg string) {
	if st == nil {
		return "", ""
	}
	rel := func(p string) bool {
		return p != "" && !filepath.IsAbs(p) && !strings.HasPrefix(filepath.Clean(p), "..")
	}
	if st.Unchecked != "" {
		if st.HomeEnv != "" || st.Home != "" || st.Root != "" || len(st.Files) > 0 {
			return "conversations", "\"unchecked\" says there is nothing to look in: no home, root or files beside it"
		}
		return "", ""
	}
	switch {
	case st.HomeEnv == "" && st.Home == "":
		return "conversations", "needs \"home\" or \"home_env\""
	case st.HomeEnvSub != "" && (st.HomeEnv == "" || !rel(st.HomeEnvSub)):
		return "conversations", "\"home_env_sub\" needs \"home_env\" and must be a relative path"
	case filepath.IsAbs(st.DirFile):
		return "conversations", "\"dir_file\" must be a relative path"
	case st.Home != "" && !rel(st.Home):
		return "conversations", fmt.Sprintf("home %q must be a relative path under $HOME", st.Home)
	case !rel(st.Root):
		return "conversations", fmt.Sprintf("root %q must be a relative path", st.Root)
	case len(st.Files) == 0:
		return "conversations", "needs \"files\""
	}
	for _, p := range append(append([]string{}, st.Files...), st.Archived...) {
		if !rel(p) || strings.Count(p, idPlaceholder)+strings.Count(p, id8Placeholder) != 1 {
			return "conversations", fmt.Sprintf("pattern %q must be a relative path holding %s or %s once", p, idPlaceholder, id8Placeholder)
		}
		if strings.Contains(p, id8Placeholder) && len(st.IDField) == 0 {
			return "conversations", fmt.Sprintf("pattern %q names other ids too: it needs \"id_field\"", p)
		}
		if _, err := filepath.Match(p, ""); err != nil {
			return "conversations", fmt.Sprintf("pattern %q: %v", p, err)
		}
	}
	if rt := st.Retention; rt != nil && (!rel(rt.Settings) || rt.Key == "" || rt.DefaultDays <= 0) {
		return "conversations", "retention needs a relative \"settings\" file, a \"key\" and \"default_days\" above 0"
	}
	if msg := checkMoved(st.MovedBy, rel); msg != "" {
		return "conversations", msg
	}
	if msg := checkBackground(st.Background); msg != "" {
		return "conversations", msg
	}
	if len(st.Archived) > 0 && len(st.Unarchive) == 0 {
		return "conversations", "\"archived\" needs \"unarchive\", the command that brings one back"
	}
	return "", ""
}
