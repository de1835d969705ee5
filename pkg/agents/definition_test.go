package agents_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/plan"
	"github.com/kittymux/kittymux/pkg/recognize"
)

func TestShippedDefinitionsLoad(t *testing.T) {
	s, err := agents.Load("")
	if err != nil {
		t.Fatalf("shipped definitions: %v", err)
	}
	if len(s.Names()) < 20 {
		t.Errorf("only %d definitions: %v", len(s.Names()), s.Names())
	}
}

// TestShippedGenerated: shipped.go is what gen.go makes of
// assets/resume-agents.json as it is now.
func TestShippedGenerated(t *testing.T) {
	var stderr bytes.Buffer
	cmd := exec.Command("go", "run", "gen.go", "-")
	cmd.Stderr = &stderr
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, stderr.Bytes())
	}
	have, err := os.ReadFile("shipped.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Errorf("shipped.go is stale against assets/resume-agents.json: run `go generate ./pkg/agents/` (just generate)\n%s",
			cmp.Diff(string(want), string(have)))
	}
}

func writeUser(t *testing.T, body string) string {
	t.Helper()
	p := paths.Under(t.TempDir())
	if err := os.MkdirAll(p.ConfigDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.UserAgents(), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p.UserAgents()
}

// designExample is docs/adding-an-agent.md's example of a user's own
// agent, read from that page so that it stays valid.
func designExample(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../../docs/adding-an-agent.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```json\n{ \"myagent\"")
	block, _, closed := strings.Cut(block, "```")
	if !ok || !closed {
		t.Fatal("docs/adding-an-agent.md has no example of a user's own agent (```json { \"myagent\" ...)")
	}
	return `{ "myagent"` + block
}

func TestLoadUserFile(t *testing.T) {
	file := writeUser(t, designExample(t))
	s, err := agents.Load(file)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	c, ok := recognize.Argv(s, []string{"/opt/bin/myagent", "--resume", "abc123", "--fast"})
	if !ok {
		t.Fatal("myagent not recognised")
	}
	want := recognize.Command{Agent: "myagent", Program: w("/opt/bin/myagent"), Flags: w("--fast"), ID: "abc123", IDFrom: "--resume"}
	if diff := cmp.Diff(want, c, cmpCommand); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	argv, err := plan.ResumeArgv(s, c, plan.ModeLatest, "")
	if err != nil || strings.Join(argv, " ") != "/opt/bin/myagent --fast --continue" {
		t.Errorf("latest = %q, %v", argv, err)
	}
	if _, ok := s.Definition("claude"); !ok {
		t.Error("shipped claude lost")
	}
}

func TestLoadMissingUserFile(t *testing.T) {
	s, err := agents.Load(filepath.Join(t.TempDir(), "resume.json"))
	if err != nil {
		t.Fatalf("missing user file: %v", err)
	}
	if _, ok := s.Definition("codex"); !ok {
		t.Error("no codex")
	}
}

func TestLoadUserReplacesShipped(t *testing.T) {
	file := writeUser(t, `{"claude": {
		"programs": ["claude"],
		"id_pattern": "[a-z0-9-]+",
		"exact": ["--resume", "{id}"],
		"strip_with_value": ["--resume"],
		"probes": [{"args": ["--help"], "expect": ["--resume"]}]}}`)
	s, err := agents.Load(file)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	d, _ := s.Definition("claude")
	if len(d.Latest) != 0 {
		t.Errorf("user claude has latest %q: the shipped entry was merged, not replaced", d.Latest)
	}
	// -p is not one-shot in the user's claude: it replaced the shipped one.
	c, _ := recognize.Argv(s, []string{"claude", "-p"})
	if c.OneShot {
		t.Error("shipped one-shot flags leaked into the user's entry")
	}
}

func TestLoadErrors(t *testing.T) {
	const good = `"probes": [{"args": ["--help"], "expect": ["--resume", "--continue"]}]`
	tests := []struct {
		name string
		body string
		want string // after the file name
	}{
		{
			name: "template without id",
			body: `{"myagent": {"exact": ["--resume"], "strip": ["--resume"], ` + good + `}}`,
			want: `: agent "myagent": field "exact": must contain "{id}"`,
		},
		{
			name: "no exact at all",
			body: `{"myagent": {` + good + `}}`,
			want: `: agent "myagent": field "exact": must contain "{id}"`,
		},
		{
			name: "id twice",
			body: `{"myagent": {"exact": ["--resume", "{id}", "{id}"], "strip_with_value": ["--resume"], ` + good + `}}`,
			want: `: agent "myagent": field "exact": must contain "{id}" only once`,
		},
		{
			name: "id inside a word",
			body: `{"myagent": {"exact": ["--resume", "x{id}"], "strip_with_value": ["--resume"], ` + good + `}}`,
			want: `: agent "myagent": field "exact": "x{id}": {id} must be a word of its own or a --flag={id}`,
		},
		{
			name: "unknown field",
			body: `{"myagent": {"exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], "resme": 1, ` + good + `}}`,
			want: `: agent "myagent": field "resme": unknown field`,
		},
		{
			name: "unknown field in a probe",
			body: `{"myagent": {"exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], "probes": [{"args": ["--help"], "expct": []}]}}`,
			want: `: agent "myagent": field "expct": unknown field`,
		},
		{
			name: "wrong type",
			body: `{"myagent": {"exact": "--resume {id}", ` + good + `}}`,
			want: `: agent "myagent": field "exact": must be []string, not string`,
		},
		{
			name: "regexp does not compile",
			body: `{"myagent": {"id_pattern": "[a-", "exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], ` + good + `}}`,
			want: `: agent "myagent": field "id_pattern": does not compile: error parsing regexp: missing closing ]: ` + "`[a-`",
		},
		{
			name: "regexp matches empty",
			body: `{"myagent": {"id_pattern": "[a-z]*", "exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], ` + good + `}}`,
			want: `: agent "myagent": field "id_pattern": matches an empty id`,
		},
		{
			name: "unknown scope",
			body: `{"myagent": {"exact": ["--resume", "{id}"], "latest": ["--continue"], "latest_scope": "dir", "strip_with_value": ["--resume"], "strip": ["--continue"], ` + good + `}}`,
			want: `: agent "myagent": field "latest_scope": unknown scope "dir" (cwd, project, checkout, unstated or global)`,
		},
		{
			name: "latest without scope",
			body: `{"myagent": {"exact": ["--resume", "{id}"], "latest": ["--continue"], "strip_with_value": ["--resume"], "strip": ["--continue"], ` + good + `}}`,
			want: `: agent "myagent": field "latest_scope": required with "latest" (cwd, project, checkout, unstated or global)`,
		},
		{
			name: "template flag not stripped",
			body: `{"myagent": {"exact": ["--resume", "{id}"], ` + good + `}}`,
			want: `: agent "myagent": field "exact": flag "--resume" must be in "strip", "strip_with_value" or "strip_optional_value" so a saved one is not doubled`,
		},
		{
			name: "subcommand not a session subcommand",
			body: `{"myagent": {"exact": ["resume", "{id}"], "probes": [{"args": ["--help"], "expect": ["resume"]}]}}`,
			want: `: agent "myagent": field "exact": subcommand "resume" must be in "session_subcommands" so a saved one is stripped`,
		},
		{
			name: "flag not probed",
			body: `{"myagent": {"exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], "probes": [{"args": ["--help"], "expect": ["--continue"]}]}}`,
			want: `: agent "myagent": field "probes": flag "--resume" of "exact" is not expected by any probe`,
		},
		{
			name: "no probe",
			body: `{"myagent": {"exact": ["--resume", "{id}"], "strip_with_value": ["--resume"]}}`,
			want: `: agent "myagent": field "probes": an agent that resumes needs a probe confirming its flags`,
		},
		{
			name: "flag in two lists",
			body: `{"myagent": {"exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], "value_flags": ["--resume"], ` + good + `}}`,
			want: `: agent "myagent": field "value_flags": flag "--resume" is also in "strip_with_value"`,
		},
		{
			name: "not a flag",
			body: `{"myagent": {"exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], "strip": ["continue"], ` + good + `}}`,
			want: `: agent "myagent": field "strip": "continue" is not a flag (one word starting with '-', no '=')`,
		},
		{
			name: "id flag not stripped",
			body: `{"myagent": {"exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], "id_flags": ["--session-id"], ` + good + `}}`,
			want: `: agent "myagent": field "id_flags": flag "--session-id" must be in "strip_with_value" or "strip_optional_value"`,
		},
		{
			name: "program taken by another agent",
			body: `{"myclaude": {"programs": ["claude"], "exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], ` + good + `}}`,
			want: `: agent "myclaude": field "programs": "claude" is already agent "claude"`,
		},
		{
			name: "program with a slash",
			body: `{"myagent": {"programs": ["/usr/bin/x"], "exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], ` + good + `}}`,
			want: `: agent "myagent": field "programs": "/usr/bin/x" is not a plain executable name`,
		},
		{
			name: "templates on an agent that cannot resume",
			body: `{"myagent": {"resume": false, "exact": ["--resume", "{id}"]}}`,
			want: `: agent "myagent": field "exact": must be empty when "resume" is false`,
		},
		{
			name: "bad positionals",
			body: `{"myagent": {"positionals": "maybe", "resume": false}}`,
			want: `: agent "myagent": field "positionals": must be "prompt", "path" or "one_shot", not "maybe"`,
		},
		{
			name: "bad name",
			body: `{"My Agent": {"resume": false}}`,
			want: `: agent "My Agent": name must be lowercase letters, digits, '.', '_' or '-'`,
		},
		{
			name: "not an object",
			body: `["claude"]`,
			want: `: not a JSON object of agent definitions: json: cannot unmarshal array into Go value of type map[string]json.RawMessage`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := writeUser(t, tc.body)
			s, err := agents.Load(file)
			if err == nil {
				t.Fatal("no error")
			}
			if got, want := err.Error(), file+tc.want; got != want {
				t.Errorf("error\n got: %s\nwant: %s", got, want)
			}
			if !errors.Is(err, agents.ErrDefinition) {
				t.Errorf("error %v is not ErrDefinition", err)
			}
			// Load still returns a usable set of the shipped definitions.
			if s == nil {
				t.Fatal("no set")
			}
			if _, ok := recognize.Argv(s, []string{"claude", "--continue"}); !ok {
				t.Error("shipped claude not usable after a bad user file")
			}
			if _, ok := s.Definition("myagent"); ok {
				t.Error("the bad entry was kept")
			}
		})
	}
}

func TestLoadKeepsValidUserEntries(t *testing.T) {
	file := writeUser(t, `{
		"good": {"exact": ["--resume", "{id}"], "strip_with_value": ["--resume"], "probe": {"args": ["--help"], "expect": ["--resume"]}},
		"bad": {"exact": ["--resume"]},
		"myclaude": {"programs": ["claude"], "resume": false}
	}`)
	s, err := agents.Load(file)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{`agent "bad": field "exact"`, `agent "myclaude": field "programs"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, ok := s.Definition("good"); !ok {
		t.Error("valid user entry dropped")
	}
	if c, _ := recognize.Argv(s, []string{"claude"}); c.Agent != "claude" {
		t.Errorf("claude recognised as %q", c.Agent)
	}
}

func TestLoadUnreadableUserFile(t *testing.T) {
	dir := t.TempDir() // a directory cannot be read as a file
	s, err := agents.Load(dir)
	if err == nil || !strings.Contains(err.Error(), dir) {
		t.Fatalf("error %v does not name %s", err, dir)
	}
	if _, ok := s.Definition("claude"); !ok {
		t.Error("shipped definitions lost")
	}
}

// Each shipped definition survives a round trip through its JSON: what
// `kittymux` could print for a user to copy into resume.json loads again.
func TestDefinitionRoundTrip(t *testing.T) {
	s := loadShipped(t)
	all := map[string]agents.Definition{}
	for _, n := range s.Names() {
		d, _ := s.Definition(n)
		all[n] = d
	}
	data, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	file := writeUser(t, string(data))
	s2, err := agents.Load(file)
	if err != nil {
		t.Fatalf("reload: %v", err)
	}
	if diff := cmp.Diff(s.Names(), s2.Names()); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}
