package docs_test

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// stageOrder names the stages of docs/development.md's Layout table in
// the data's order, the table's from the top: a package imports only
// packages of its own stage and of those before it. The tests' stage stands
// apart: its packages import anything, and only tests import them.
var stageOrder = []string{
	"shared small parts", "talking to kitty", "the agents", "live windows → journal", "save → session file",
	"restored window → agent", "commands",
}

// TestImportsFollowTheData: no package under pkg/ imports (outside its
// tests) a package of a later stage of the Layout table than its own.
func TestImportsFollowTheData(t *testing.T) {
	stage := layoutStages(t)
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./pkg/...")
	cmd.Dir = repo
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const prefix = "github.com/kittymux/kittymux/pkg/"
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		from := strings.TrimPrefix(fields[0], prefix)
		sf, ok := stage[from]
		if !ok {
			t.Errorf("pkg/%s is in no stage of the Layout table", from)
			continue
		}
		for _, imp := range fields[1:] {
			to, ours := strings.CutPrefix(imp, prefix)
			st, known := stage[to]
			switch {
			case !ours || !known || sf == tests || sf >= st && st != tests:
				continue
			case st == tests:
				t.Errorf("pkg/%s imports the test kit pkg/%s", from, to)
			default:
				t.Errorf("pkg/%s (%s) imports pkg/%s (%s), a later stage: against the data's flow",
					from, stageOrder[sf], to, stageOrder[st])
			}
		}
	}
}

// tests is the stage of the Layout table's tests row.
const tests = -1

// layoutStages reads the Layout table: each package named in a row's
// second cell (as `path`, relative to pkg/) has the place in stageOrder of
// that row's stage, or of the last row above that names one.
func layoutStages(t *testing.T) map[string]int {
	t.Helper()
	page := pages(t)["docs/development.md"]
	_, layout, _ := strings.Cut(page, "## Layout")
	layout, _, _ = strings.Cut(layout, "\n## ")
	named := regexp.MustCompile("`([^`]+)`")
	stage := map[string]int{}
	label := ""
	for line := range strings.Lines(layout) {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || strings.HasPrefix(cells[1], "---") || strings.TrimSpace(cells[1]) == "stage" {
			continue
		}
		if l := strings.TrimSpace(cells[1]); l != "" {
			label = l // a row with no stage is in the one above
		}
		s := slices.Index(stageOrder, label)
		if label == "tests" {
			s = tests
		} else if s < 0 {
			t.Fatalf("the Layout table's stage %q is not in stageOrder", label)
		}
		for _, m := range named.FindAllStringSubmatch(cells[2], -1) {
			if gofiles, _ := filepath.Glob(filepath.Join(repo, "pkg", m[1], "*.go")); len(gofiles) > 0 {
				stage[m[1]] = s
			}
		}
	}
	if len(stage) < len(stageOrder) {
		t.Fatalf("the Layout table names only %d packages", len(stage))
	}
	return stage
}
