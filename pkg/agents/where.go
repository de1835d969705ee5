package agents

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// id8Placeholder is the first 8 characters of an id in a Store pattern:
// gemini 0.61.0 names a conversation's file session-<time>-<id[:8]>.jsonl.
const id8Placeholder = "{id8}"

// Run is how the agent would run for a conversation: its words (argv, the
// program first), the directory it runs in and its environment. Flags,
// settings beside the directory and variables can each move where an agent
// keeps its conversations (MovedBy).
type Run struct {
	Argv   []string
	Dir    string
	Getenv func(string) string
}

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

// settingsMax bounds a settings file read for MovedBy.Key.
const settingsMax = 4 << 20

// moved reports whether r moves the agent's conversations away from home's
// Root, or kittymux cannot tell.
func (st *Store) moved(home string, r Run) bool {
	m := st.MovedBy
	if m == nil {
		return false
	}
	for _, k := range m.Env {
		if r.Getenv(k) != "" {
			return true
		}
	}
	for _, w := range r.Argv {
		for _, f := range m.Flags {
			if w == f || strings.HasPrefix(w, f+"=") {
				return true
			}
		}
	}
	for _, s := range m.Settings {
		if setsKey(filepath.Join(home, s), m.Key) {
			return true
		}
	}
	if len(m.ProjectSettings) > 0 && !filepath.IsAbs(r.Dir) {
		return true // the project's settings cannot be read: unknown
	}
	for _, s := range m.ProjectSettings {
		if setsKey(filepath.Join(r.Dir, s), m.Key) {
			return true
		}
	}
	return false
}

// setsKey reports whether the JSON object in file sets key, or the file is
// there but cannot be read as one (the agent may read it otherwise).
func setsKey(file, key string) bool {
	data, err := userfile.Read(file, settingsMax)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return true
	}
	v, ok := obj[key]
	return ok && string(v) != "null" && string(v) != `""`
}

// find returns the first file under dir that one of patterns names for
// id and, with IDField, whose first line says the whole id.
func (st *Store) find(dir string, patterns []string, id string) string {
	id8 := id
	if len(id8) > 8 {
		id8 = id8[:8]
	}
	for _, p := range patterns {
		p = strings.ReplaceAll(strings.ReplaceAll(p, idPlaceholder, id), id8Placeholder, id8)
		m, _ := userfile.Glob(filepath.Join(dir, p))
		for _, f := range m {
			if len(st.IDField) == 0 || firstLineSays(f, st.IDField, id) {
				return f
			}
		}
	}
	return ""
}

// firstLineSays reports whether the first line of file is a JSON object
// whose value at path is id.
func firstLineSays(file string, path []string, id string) bool {
	f, err := userfile.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	if userfile.CheckRegular(f) != nil {
		return false
	}
	line, err := bufio.NewReaderSize(io.LimitReader(f, cwdScanBytes), 64<<10).ReadSlice('\n')
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return false
	}
	var v any
	if json.Unmarshal(line, &v) != nil {
		return false
	}
	for _, k := range path {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	s, _ := v.(string)
	return s == id
}

// dirFile reads a directory from a small file (gemini's .project_root):
// "" unless it holds one absolute path.
func dirFile(file string) string {
	data, err := userfile.Read(file, 64<<10)
	if err != nil {
		return ""
	}
	d := strings.TrimSpace(string(data))
	if !filepath.IsAbs(d) || strings.ContainsAny(d, "\n\x00") {
		return ""
	}
	return filepath.Clean(d)
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
