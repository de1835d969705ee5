package agents

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shapes are the byte-by-byte checks and the expressions they stand for.
var shapes = []struct {
	name  string
	check func(string) bool
	re    *regexp.Regexp
}{
	{"isName", isName, regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)},
	{"isFlag", isFlag, regexp.MustCompile(`^-{1,2}[A-Za-z0-9][A-Za-z0-9_.-]*$`)},
	{"isProgram", isProgram, regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.+-]*$`)},
	{"isPackage", isPackage, regexp.MustCompile(`^(@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*$`)},
	{"isSubword", isSubword, regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]*$`)},
	{"isTemplateWord", isTemplateWord, regexp.MustCompile(`^[A-Za-z0-9_.:=@+/-]+$`)},
	{"isPlainToken", isPlainToken, regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$`)},
	{"IsWorkerName", IsWorkerName, regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)},
	{"isVersionedLauncher", isVersionedLauncher, regexp.MustCompile(`^(python|pypy|perl|ruby|php|lua|tclsh|node)[0-9.]*$`)},
	{"IsInterpreter", IsInterpreter, regexp.MustCompile(`^(node|nodejs|bun|python[0-9.]*)$`)},
}

var shapeSeeds = []string{
	"", "-", "--", "---x", "-x", "--x", "--model", "--max-old-space-size", "-=x", "--a=b", "claude", "Claude", "a.b_c-d",
	"a+b", "@scope/pkg", "@/pkg", "@scope/", "@scope", "@Scope/pkg", "@a/b/c", "pkg/x", "x@y", "session:list", ":x",
	"a:b=c@d+e/f-g", "python", "python3", "python3.12", "pythonx", "python3x", "node", "node18", "nodejs", "nodejs2",
	"bun", "bun1", "pypy3", "tclsh8.6", "lua5.4", "perl.", "x node", "node\n", "\nnode", "a\nb", "é", "aé",
	"4f9e2a51-3c1d-4b7a-9e0f-2d5c8a1b6e73", "ses_abc", "T-1a", "a\xff", "a\x00", "A-Z", "a" + strings.Repeat("b", 199),
	"a" + strings.Repeat("b", 200), "a" + strings.Repeat("b", 63), "a" + strings.Repeat("b", 64), "_x", ".x", "x..", "x/", "a b",
}

// TestShapes holds each check to its expression on inputs at and around
// the edges of its classes.
func TestShapes(t *testing.T) {
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			var got, want []string
			for _, in := range shapeSeeds {
				if s.check(in) {
					got = append(got, in)
				}
				if s.re.MatchString(in) {
					want = append(want, in)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("accepted (-regexp +check):\n%s", diff)
			}
		})
	}
}

func FuzzShapes(f *testing.F) {
	for _, s := range shapeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, s := range shapes {
			if got, want := s.check(in), s.re.MatchString(in); got != want {
				t.Errorf("%s(%q) = %v, its expression says %v", s.name, in, got, want)
			}
		}
	})
}

var emptySeeds = []string{
	`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}`, `ses_[A-Za-z0-9]+`, `[A-Za-z0-9][A-Za-z0-9_.-]{0,127}`, `T-[0-9a-f][0-9a-f-]*`,
	`a*`, `a?`, `a+`, `(a*)+`, `a{0}`, `a{0,3}`, `(a?){2,}`, `a{2,}`, `|a`, `a|`, `a|b`, `(?:)`, `^$`, `(?m)^$`,
	`\A\z`, `\b`, `\B`, `x\B`, `\B*`, `[^\x00-\x{10FFFF}]`, `.*`, `(?s).`, `(?i)k?`, `()`, `(a|b*)c?`, `\pL*`,
}

// TestMatchesEmpty holds matchesEmpty to what the compiled, anchored
// pattern says of an empty id.
func TestMatchesEmpty(t *testing.T) {
	for _, p := range emptySeeds {
		checkMatchesEmpty(t, p)
	}
}

func FuzzMatchesEmpty(f *testing.F) {
	for _, p := range emptySeeds {
		f.Add(p)
	}
	f.Fuzz(checkMatchesEmpty)
}

func checkMatchesEmpty(t *testing.T, pattern string) {
	p, err := compileID(pattern)
	if err != nil {
		return
	}
	if want := regexp.MustCompile(`^(?:` + pattern + `)$`).MatchString(""); p.empty != want {
		t.Errorf("%q: matchesEmpty %v, the compiled pattern says %v", pattern, p.empty, want)
	}
}
