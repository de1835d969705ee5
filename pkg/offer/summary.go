package offer

import (
	"fmt"
	"strings"

	"github.com/kittymux/kittymux/pkg/ids"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/remote"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// Summary is what a session file holds, for the offer: its tabs, their
// windows and the agent windows the restore prompt will resume.
type Summary struct {
	Tabs    []Tab `json:"tabs"`
	Windows int   `json:"windows"`
	Agents  int   `json:"agents"`
}

// Tab is one tab of a session file. Titles, directories and ids come from
// an editable file: print them through kitty.Printable.
type Tab struct {
	Title   string  `json:"title,omitempty"`
	Windows int     `json:"windows"`
	Agents  []Agent `json:"agents,omitempty"`
}

// Agent is one agent window.
type Agent struct {
	Agent string    `json:"agent"`
	Mode  plan.Mode `json:"mode"`
	ID    string    `json:"id,omitempty"`
	Dir   string    `json:"dir,omitempty"`
	// Host is where an agent reached over ssh runs (its ssh command's
	// destination); Dir is then its directory there.
	Host string `json:"host,omitempty"`
}

func (a Agent) String() string {
	s := a.Agent
	if a.Host != "" {
		s += " on " + a.Host
	}
	switch {
	case a.ID != "":
		s += " " + ids.Short(a.ID)
	case a.Mode == "latest":
		s += " (latest conversation)"
	case a.Mode == "choose":
		s += " (asks which conversation)"
	default:
		s += " (new conversation)"
	}
	if a.Dir != "" {
		s += " in " + a.Dir
	}
	return s
}

// Summarize reads a session file.
func Summarize(data []byte) (Summary, error) {
	f, err := sessionfile.Parse(data)
	if err != nil {
		return Summary{}, err
	}
	var s Summary
	last := [2]int{-1, -1}
	for _, ref := range f.Windows() {
		if at := [2]int{ref.OSWindow, ref.Tab}; at != last {
			s.Tabs = append(s.Tabs, Tab{Title: ref.TabTitle})
			last = at
		}
		t := &s.Tabs[len(s.Tabs)-1]
		t.Windows++
		s.Windows++
		r, ok := resumeRecord(ref.Line.Launch)
		if !ok {
			continue
		}
		a := Agent{Agent: r.Agent, Mode: r.Mode, ID: r.ID, Dir: ref.Cwd}
		if r.Dir != "" {
			// The prompt resumes in the record's directory: the file's cd
			// names a parent where kitty could not write the directory.
			a.Dir = r.Dir
		}
		if ssh, ok := remote.ParseSSH(r.Argv); ok && r.Remote != "" {
			a.Host, a.Dir = ssh.Host(), r.RemoteDir
		}
		t.Agents = append(t.Agents, a)
		s.Agents++
	}
	return s, nil
}

// Lines describes the summary, a line a tab.
func (s Summary) Lines() []string {
	var out []string
	for i, t := range s.Tabs {
		title := t.Title
		if title == "" {
			title = fmt.Sprintf("tab %d", i+1)
		} else {
			title = fmt.Sprintf("tab %q", title)
		}
		line := fmt.Sprintf("%s: %d window%s", title, t.Windows, plural(t.Windows))
		var as []string
		for _, a := range t.Agents {
			as = append(as, a.String())
		}
		if len(as) > 0 {
			line += ": " + strings.Join(as, ", ")
		}
		out = append(out, line)
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
