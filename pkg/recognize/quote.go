package recognize

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Quote renders argv for people to read, each word shell-quoted where it
// needs it. Nothing runs what it returns.
func Quote(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			q = strconv.Quote(a)
		}
		parts[i] = q
	}
	return strings.Join(parts, " ")
}
