package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/root"
	"github.com/kittymux/kittymux/pkg/docs"
)

// repo is the repository's root, seen from this package.
const repo = "../.."

// pages reads README.md and every docs/*.md, by their paths in the
// repository.
func pages(t *testing.T) map[string]string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	names = append(names, filepath.Join(repo, "README.md"))
	out := map[string]string{}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(repo, name)
		out[filepath.ToSlash(rel)] = string(b)
	}
	if len(out) < 2 {
		t.Fatalf("no pages under docs/: %v", names)
	}
	return out
}

// brokenLinks returns each relative link of page (at path rel in the
// repository) that leads to no file of the repository, or to an anchor its
// Markdown target has no heading for, and the pages it links to.
func brokenLinks(t *testing.T, rel, text string) (broken, linked []string) {
	t.Helper()
	page := docs.Parse(text)
	for _, link := range page.Links() {
		if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
			continue
		}
		file, anchor, _ := strings.Cut(link, "#")
		if file == "" {
			if !page.Anchors[anchor] {
				broken = append(broken, link+" (no heading #"+anchor+" here)")
			}
			continue
		}
		target := filepath.ToSlash(filepath.Join(filepath.Dir(rel), file))
		if strings.HasPrefix(target, "../") || filepath.IsAbs(file) {
			broken = append(broken, link+" (outside the repository)")
			continue
		}
		b, err := os.ReadFile(filepath.Join(repo, target))
		if err != nil {
			broken = append(broken, link+" (no file "+target+")")
			continue
		}
		linked = append(linked, target)
		if anchor != "" && strings.HasSuffix(target, ".md") && !docs.Parse(string(b)).Anchors[anchor] {
			broken = append(broken, link+" (no heading #"+anchor+" in "+target+")")
		}
	}
	return broken, linked
}

// TestLinks: every relative link and image of the README and docs/ leads to
// a file of the repository (and a heading, for an anchor), and every page of
// docs/ can be reached from the README.
func TestLinks(t *testing.T) {
	all := pages(t)
	graph := map[string][]string{}
	for rel, text := range all {
		broken, linked := brokenLinks(t, rel, text)
		for _, b := range broken {
			t.Errorf("%s: broken link %s", rel, b)
		}
		graph[rel] = linked
	}
	seen := map[string]bool{"README.md": true}
	for todo := []string{"README.md"}; len(todo) > 0; {
		page := todo[0]
		todo = todo[1:]
		for _, next := range graph[page] {
			if !seen[next] {
				seen[next] = true
				todo = append(todo, next)
			}
		}
	}
	for rel := range all {
		if !seen[rel] {
			t.Errorf("%s is not linked from the README or a page it leads to", rel)
		}
	}
}

// TestBrokenLinksFound: the link check finds a missing file and a missing
// heading, and passes a good link.
func TestBrokenLinksFound(t *testing.T) {
	text := "[a](docs/nope.md) [b](README.md#no-such-heading) [c](docs/after-a-crash.md) [d](#after-a-crash) [e](#gone)\n\n## After a crash\n"
	broken, _ := brokenLinks(t, "README.md", text)
	if len(broken) != 3 || !strings.Contains(broken[0], "docs/nope.md") || !strings.Contains(broken[1], "no-such-heading") ||
		!strings.Contains(broken[2], "#gone") {
		t.Errorf("broken = %q, want docs/nope.md, #no-such-heading and #gone", broken)
	}
}

// TestCommands: every `kittymux ...` the README and docs/ show, in code
// blocks and code spans, is a command of the CLI with flags it has.
func TestCommands(t *testing.T) {
	f, _, _ := factorytest.New(t)
	cli := root.NewCmdRoot(f)
	n := 0
	for rel, text := range pages(t) {
		for _, code := range docs.Parse(text).Code {
			for _, args := range docs.Commands(code) {
				n++
				if err := docs.CheckCommand(cli, args); err != nil {
					t.Errorf("%s: kittymux %s: %v", rel, strings.Join(args, " "), err)
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d kittymux commands found in the docs: the search is broken", n)
	}
}

// TestUnknownCommandsFound: the command check refuses what the CLI lacks.
func TestUnknownCommandsFound(t *testing.T) {
	f, _, _ := factorytest.New(t)
	cli := root.NewCmdRoot(f)
	for _, bad := range []string{
		"`kittymux sesions list`",
		"`kittymux sessions bogus`",
		"`kittymux sessions list --nope`",
		"`kittymux integration install|frobnicate`",
		"`kittymux agents restart --to x --nope`",
	} {
		cmds := docs.Commands(docs.Parse(bad).Code[0])
		if len(cmds) != 1 {
			t.Errorf("%s: found %q, want one command", bad, cmds)
			continue
		}
		if docs.CheckCommand(cli, cmds[0]) == nil {
			t.Errorf("%s passed the check", bad)
		}
	}
	for _, good := range []string{
		"kittymux sessions restore last --wait 5s",
		"kittymux scanner run | poll --once [--json] | status [--json]",
		"kittymux --to unix:/x sessions list --json",
		"kittymux sessions list --json | jq .",
		"kittymux scanner run | less",
		`"$(go env GOPATH)/bin/kittymux" setup   # connect`,
	} {
		cmds := docs.Commands(good)
		if len(cmds) != 1 {
			t.Errorf("%s: found %q, want one command", good, cmds)
			continue
		}
		if err := docs.CheckCommand(cli, cmds[0]); err != nil {
			t.Errorf("%s: %v", good, err)
		}
	}
}

// TestReadme: the README is at most 15 KB, and its first screen (40 lines)
// gives the install command, the quick test command, the Go version go.mod
// names and an "After a crash" section.
func TestReadme(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range readmeProblems(string(b), string(mod)) {
		t.Error(p)
	}
}

// readmeProblems says what the README lacks or has too much of.
func readmeProblems(readme, gomod string) []string {
	var out []string
	if len(readme) > 15000 {
		out = append(out, "README.md is over 15 KB: move detail to docs/")
	}
	lines := strings.SplitN(readme, "\n", 41)
	first := strings.Join(lines[:min(40, len(lines))], "\n")
	for _, want := range []string{"go install ./cmd/...", "kittymux)\" setup", "go test -short ./...", "\n## After a crash\n"} {
		if !strings.Contains(first, want) {
			out = append(out, "the README's first 40 lines lack "+strings.TrimSpace(want))
		}
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(gomod)
	if m == nil {
		out = append(out, "go.mod names no Go version")
	} else if !strings.Contains(first, "Go "+m[1]) {
		out = append(out, "the README's first 40 lines do not name Go "+m[1]+", go.mod's")
	}
	return out
}

// TestCIRunsReadmesTests: CI runs the quick tests the README gives a
// newcomer, and after them every test with real-kitty tests required.
func TestCIRunsReadmesTests(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repo, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	ci := string(b)
	short := regexp.MustCompile(`go test -short( -count=1)? \./\.\.\.`).FindStringIndex(ci)
	require := strings.Index(ci, "export KITTYMUX_E2E=require")
	full := regexp.MustCompile(`(?m)^go test (-v )?(-timeout \S+ )?\./\.\.\.`).FindStringIndex(ci)
	if short == nil || require < 0 || full == nil || !(short[0] < require && require < full[0]) {
		t.Errorf(".ci/run must run go test -short ./..., then export KITTYMUX_E2E=require and go test ./...")
	}
}

// TestReadmeProblemsFound: the README check fails a long README and one
// whose first screen lacks what a newcomer needs.
func TestReadmeProblemsFound(t *testing.T) {
	if p := readmeProblems("# x\n", "module m\n\ngo 1.26.0\n"); len(p) != 5 {
		t.Errorf("an empty README: %q, want 5 problems", p)
	}
	good := "Go 1.26: go install ./cmd/... && \"$(go list -f '{{.Target}}' ./cmd/kittymux)\" setup\ngo test -short ./...\n\n## After a crash\n"
	if p := readmeProblems(good, "go 1.26.0\n"); len(p) != 0 {
		t.Errorf("a good README: %q", p)
	}
	late := good[:strings.Index(good, "\n## After")] + strings.Repeat("\n", 40) + "\n## After a crash\n"
	if p := readmeProblems(late, "go 1.26.0\n"); len(p) != 1 {
		t.Errorf("After a crash past line 40: %q, want 1 problem", p)
	}
	if p := readmeProblems(good+strings.Repeat("x", 15000), "go 1.26.0\n"); len(p) != 1 {
		t.Errorf("a long README: %q, want 1 problem", p)
	}
}

// TestLayoutNamesEveryPackage: the Layout table of docs/development.md names
// every package under pkg/, as `path` relative to pkg/, and no other.
func TestLayoutNamesEveryPackage(t *testing.T) {
	page := pages(t)["docs/development.md"]
	_, layout, ok := strings.Cut(page, "## Layout")
	if !ok {
		t.Fatal("docs/development.md has no Layout section")
	}
	layout, _, _ = strings.Cut(layout, "\n## ")
	root := filepath.Join(repo, "pkg")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		gofiles, _ := filepath.Glob(filepath.Join(path, "*.go"))
		if len(gofiles) == 0 || path == root {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if !strings.Contains(layout, "`"+filepath.ToSlash(rel)+"`") {
			t.Errorf("docs/development.md's Layout does not name pkg/%s", filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A row's package is its second cell.
	for _, line := range strings.Split(layout, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[2]), "`") {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[2]), "`")
		if gofiles, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(name), "*.go")); len(gofiles) == 0 {
			t.Errorf("docs/development.md's Layout names pkg/%s, which has no Go files", name)
		}
	}
}
