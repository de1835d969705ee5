package agents_test

import (
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/agents"
)

// TestLoadConversationsErrors: a conversations entry is refused where its
// lookup could claim a conversation gone on a guess.
func TestLoadConversationsErrors(t *testing.T) {
	const head = `{"myagent": {"exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], ` +
		`"probes": [{"args": ["--help"], "expect": ["--resume"]}], "conversations": `
	for _, c := range []struct{ name, conv, want string }{
		{"{id8} without id_field", `{"home": ".a", "root": "r", "files": ["s-{id8}.json"]}`, `names other ids too: it needs "id_field"`},
		{"{id} and {id8}", `{"home": ".a", "root": "r", "files": ["{id}-{id8}.json"], "id_field": ["id"]}`, `holding {id} or {id8} once`},
		{"unchecked beside files", `{"unchecked": "a database", "home": ".a", "root": "r", "files": ["{id}"]}`, `"unchecked" says there is nothing to look in`},
		{"home_env_sub without home_env", `{"home": ".a", "home_env_sub": ".a", "root": "r", "files": ["{id}"]}`, `"home_env_sub" needs "home_env"`},
		{"absolute dir_file", `{"home": ".a", "root": "r", "files": ["{id}"], "dir_file": "/etc/x"}`, `"dir_file" must be a relative path`},
		{"moved_by naming nothing", `{"home": ".a", "root": "r", "files": ["{id}"], "moved_by": {}}`, `moved_by names nothing`},
		{"moved_by settings without key", `{"home": ".a", "root": "r", "files": ["{id}"], "moved_by": {"settings": ["s.json"]}}`, `moved_by settings need a "key"`},
		{"moved_by absolute settings", `{"home": ".a", "root": "r", "files": ["{id}"], "moved_by": {"project_settings": ["/s.json"], "key": "k"}}`, `must be a relative path`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := agents.Load(writeUser(t, head+c.conv+`}}`))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
		})
	}
	if _, err := agents.Load(writeUser(t, head+`{"unchecked": "a database kittymux does not read"}}}`)); err != nil {
		t.Errorf("an unchecked entry: %v", err)
	}
}
