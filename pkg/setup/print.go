package setup

import (
	"fmt"
	"io"
	"strings"

	"github.com/kittymux/kittymux/pkg/kitty"
)

// Print lists the plan's changes: each file with the lines it gains ("+")
// and loses ("-"), each command run. Text from files goes through
// kitty.Printable: a configuration line can hold anything.
func (p Plan) Print(w io.Writer) {
	for _, c := range p.Changes {
		switch c.Action {
		case Run:
			fmt.Fprintf(w, "run     systemctl --user %s\n", strings.Join(c.Args, " "))
			continue
		default:
			fmt.Fprintf(w, "%-7s %s", c.Action, kitty.Printable(c.Path))
		}
		if c.Summary != "" {
			fmt.Fprintf(w, "  (%s)", c.Summary)
		}
		fmt.Fprintln(w)
		// A removed file is listed line by line only where it was the
		// user's (a kitty.conf setup had made for its line).
		if c.Action == Remove && c.Old == nil || c.Opaque {
			continue
		}
		for _, l := range diffLines(c.Old, c.New) {
			fmt.Fprintf(w, "  %s\n", kitty.Printable(l))
		}
	}
	for _, n := range p.Notes {
		fmt.Fprintf(w, "note    %s\n", kitty.Printable(n))
	}
}

// diffLines lists the lines of a that b lacks ("- ") and of b that a
// lacks ("+ "), each run headed by its line number in a. Common leading
// and trailing lines are cut first, so a line added to a long kitty.conf
// costs nothing; what remains is compared line by line (longest common
// subsequence), small for the files setup writes.
func diffLines(a, b []byte) []string {
	out := lineDiff(splitLines(a), splitLines(b))
	eolA, eolB := len(a) == 0 || a[len(a)-1] == '\n', len(b) == 0 || b[len(b)-1] == '\n'
	switch {
	case eolA && !eolB:
		out = append(out, `\ no newline at the end of the file any more`)
	case !eolA && eolB:
		out = append(out, `\ a newline is added at the end of what was the last line`)
	}
	return out
}

func lineDiff(x, y []string) []string {
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	x, y = x[pre:len(x)-suf], y[pre:len(y)-suf]
	if len(x)*len(y) > 4_000_000 {
		// Too large to compare: list it all.
		return hunks(pre, append(prefix("- ", x), prefix("+ ", y)...))
	}
	// lcs[i][j]: the longest common subsequence of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	inHunk := false
	head := func() {
		if !inHunk {
			out = append(out, fmt.Sprintf("@@ line %d", pre+i+1))
			inHunk = true
		}
	}
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			inHunk = false
			i++
			j++
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			head()
			out = append(out, "+ "+y[j])
			j++
		default:
			head()
			out = append(out, "- "+x[i])
			i++
		}
	}
	return out
}

func hunks(at int, lines []string) []string {
	if len(lines) == 0 {
		return nil
	}
	return append([]string{fmt.Sprintf("@@ line %d", at+1)}, lines...)
}

func prefix(p string, ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = p + l
	}
	return out
}

// splitLines splits at newlines; whether the last line has one is
// diffLines' to say.
func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}
