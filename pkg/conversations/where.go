package conversations

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/userfile"
)

// Run is how the agent would run for a conversation: its words (argv, the
// program first), the directory it runs in and its environment. Flags,
// settings beside the directory and variables can each move where an agent
// keeps its conversations (agents.MovedBy).
type Run struct {
	Argv   []string
	Dir    string
	Getenv func(string) string
}

// moved reports whether r moves the agent's conversations away from home's
// Root, or kittymux cannot tell.
func moved(st *agents.Store, home string, r Run) bool {
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
	data, err := userfile.Read(file, agents.SettingsMax)
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
func find(st *agents.Store, dir string, patterns []string, id string) string {
	id8 := id
	if len(id8) > 8 {
		id8 = id8[:8]
	}
	for _, p := range patterns {
		p = strings.ReplaceAll(strings.ReplaceAll(p, agents.IDPlaceholder, id), agents.ID8Placeholder, id8)
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
