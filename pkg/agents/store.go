package agents

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
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
	// does not name; when any of it is set nothing is claimed (MovedBy).
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
	// Background: the agent's own service may run a conversation (Background).
	Background *Background `json:"background,omitempty"`
	// UserMessages: which lines of a conversation's file are the user's
	// messages; set, the user can choose among the
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
		if !rel(p) || strings.Count(p, idPlaceholder)+strings.Count(p, ID8Placeholder) != 1 {
			return "conversations", fmt.Sprintf("pattern %q must be a relative path holding %s or %s once", p, idPlaceholder, ID8Placeholder)
		}
		if strings.Contains(p, ID8Placeholder) && len(st.IDField) == 0 {
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

// MessageSpec says which lines of a conversation's file are the user's
// own messages, and where their text is: what the choosing prompt shows of
// each conversation a window could have held.
type MessageSpec struct {
	// Match are "path=value" pairs (paths dot-separated) a line must all
	// hold.
	Match []string `json:"match"`
	// Text is the path of the message's text: a string, or a list of
	// parts whose "text" fields are joined.
	Text string `json:"text"`
	// SkipPrefix: a text starting with it is the agent's own context (its
	// environment, instructions), not a message the user typed.
	SkipPrefix string `json:"skip_prefix,omitempty"`
}

// Candidate is one conversation a window could have held, as the agent's
// own file says it.
type Candidate struct {
	ID       string
	File     string
	Modified time.Time
	// First is the user's first message, as written: shown only as plain
	// printable text, never acted on.
	First string
	// Turns counts the user's messages; 0 when not known (a list the
	// agent's CLI gives).
	Turns int
	// Dir is the conversation's directory where a list gives it.
	Dir string
}

// Chooses reports whether kittymux can list agent's conversations for the
// user to choose from (its definition says where they are and which lines
// are the user's).
func (s *Set) Chooses(agent string) bool {
	a, ok := s.Agent(agent)
	if ok && Listed(agent) {
		return true
	}
	return ok && a.Def.Conversations != nil && a.Def.Conversations.UserMessages != nil && a.Def.Conversations.Unchecked == ""
}

// Listed reports whether agent's conversations are listed by running its
// own CLI (Code.Lister) rather than by reading its files.
func Listed(agent string) bool {
	c := CodeOf(agent)
	return c != nil && c.Lister != nil
}

// ID8Placeholder is the first 8 characters of an id in a Store pattern:
// gemini 0.61.0 names a conversation's file session-<time>-<id[:8]>.jsonl.
const ID8Placeholder = "{id8}"

// SettingsMax bounds a read of an agent's settings file (MovedBy.Key,
// Retention).
const SettingsMax = 4 << 20

// MovedBy is what else puts an agent's conversations outside its Root: pi
// 0.73.1 reads --session-dir, PI_CODING_AGENT_SESSION_DIR and a
// "sessionDir" in its settings.json or the project's .pi/settings.json.
// When any of it is set (or cannot be read) kittymux claims nothing about
// the conversation: it is not where kittymux would look, and saying it is
// gone would be a guess.
type MovedBy struct {
	Env   []string `json:"env,omitempty"`
	Flags []string `json:"flags,omitempty"`
	// Settings are JSON files under the agent's directory, ProjectSettings
	// under the directory it runs in; Key is the top-level key there.
	Settings        []string `json:"settings,omitempty"`
	ProjectSettings []string `json:"project_settings,omitempty"`
	Key             string   `json:"key,omitempty"`
}

// checkMoved validates a moved_by entry.
func checkMoved(m *MovedBy, rel func(string) bool) string {
	if m == nil {
		return ""
	}
	if len(m.Env)+len(m.Flags)+len(m.Settings)+len(m.ProjectSettings) == 0 {
		return "moved_by names nothing"
	}
	if (len(m.Settings) > 0 || len(m.ProjectSettings) > 0) && m.Key == "" {
		return "moved_by settings need a \"key\""
	}
	for _, f := range m.Flags {
		if !strings.HasPrefix(f, "-") {
			return fmt.Sprintf("moved_by flag %q is not a flag", f)
		}
	}
	for _, s := range append(append([]string{}, m.Settings...), m.ProjectSettings...) {
		if !rel(s) {
			return fmt.Sprintf("moved_by settings %q must be a relative path", s)
		}
	}
	return ""
}

// Background is where an agent lists the conversations its own background
// service runs (claude --bg, managed with `claude agents`): a roster file
// under the agent's directory, {"workers": {SHORT: {"pid", "sessionId",
// "cwd"}}} as claude 2.1.197 and 2.1.332 write daemon/roster.json. Such a
// conversation is attached, not resumed a second time.
type Background struct {
	Roster string `json:"roster"`
	// Attach are the words after the program that open one here; {short}
	// is the worker's name in the roster.
	Attach []string `json:"attach"`
}

const ShortPlaceholder = "{short}"

func checkBackground(bg *Background) string {
	if bg == nil {
		return ""
	}
	rel := bg.Roster != "" && !filepath.IsAbs(bg.Roster) && !strings.HasPrefix(filepath.Clean(bg.Roster), "..")
	if !rel || len(bg.Attach) == 0 {
		return "background needs a relative \"roster\" and \"attach\""
	}
	for _, w := range bg.Attach {
		if w != ShortPlaceholder && !isTemplateWord(w) {
			return "background attach word " + w + " is not a plain word"
		}
	}
	return ""
}
