package agents

import (
	"slices"
	"strings"
)

// The fixed shapes of names, flags, words and ids are checked byte by byte
// rather than by regular expressions: every kittymux process loads and checks
// the definitions before it does anything, and compiling the dozen patterns
// cost more than the rest of the load. Each function says the expression it
// stands for; shape_test.go holds them to it.

// class is a set of ASCII bytes, made by classOf from a bracket
// expression's inside. A byte of a multi-byte character is in no class, as
// the character is in no ASCII class of a regexp.
type class [256]bool

// classOf makes the class of "a-z0-9._-" (a '-' at the end is itself).
func classOf(spec string) *class {
	c := new(class)
	for i := 0; i < len(spec); i++ {
		lo, hi := int(spec[i]), int(spec[i])
		if i+2 < len(spec) && spec[i+1] == '-' {
			hi = int(spec[i+2])
			i += 2
		}
		for b := lo; b <= hi && b < 128; b++ {
			c[b] = true
		}
	}
	return c
}

// The classes, made once: a check reads one entry a byte.
var (
	alnum        = classOf("A-Za-z0-9")
	lowerAlnum   = classOf("a-z0-9")
	nameRest     = classOf("a-z0-9._-")
	flagRest     = classOf("A-Za-z0-9_.-")
	programRest  = classOf("A-Za-z0-9_.+-")
	subwordRest  = classOf("A-Za-z0-9_.:-")
	templateWord = classOf("A-Za-z0-9_.:=@+/-")
	workerRest   = classOf("A-Za-z0-9_-")
)

// word reports whether s is one byte of first followed by bytes of rest, at
// most max of them (max < 0: any number): ^[first][rest]{0,max}$.
func word(s string, first, rest *class, max int) bool {
	if s == "" || !first[s[0]] || (max >= 0 && len(s)-1 > max) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !rest[s[i]] {
			return false
		}
	}
	return true
}

// isName: ^[a-z0-9][a-z0-9._-]*$, an agent's name.
func isName(s string) bool { return word(s, lowerAlnum, nameRest, -1) }

// isFlag: ^-{1,2}[A-Za-z0-9][A-Za-z0-9_.-]*$.
func isFlag(s string) bool {
	rest, ok := strings.CutPrefix(s, "-")
	if !ok {
		return false
	}
	rest = strings.TrimPrefix(rest, "-")
	return word(rest, alnum, flagRest, -1)
}

// isProgram: ^[A-Za-z0-9][A-Za-z0-9_.+-]*$, a plain executable name.
func isProgram(s string) bool { return word(s, alnum, programRest, -1) }

// isPackage: ^(@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*$, an npm
// package name, scoped or not.
func isPackage(s string) bool {
	if scoped, ok := strings.CutPrefix(s, "@"); ok {
		scope, name, ok := strings.Cut(scoped, "/")
		return ok && isName(scope) && isName(name)
	}
	return isName(s)
}

// isSubword: ^[A-Za-z0-9][A-Za-z0-9_.:-]*$, a subcommand word.
func isSubword(s string) bool { return word(s, alnum, subwordRest, -1) }

// isTemplateWord: ^[A-Za-z0-9_.:=@+/-]+$, a word of a probe or template.
func isTemplateWord(s string) bool {
	return word(s, templateWord, templateWord, -1)
}

// isPlainToken: ^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$, the shape every id must
// have on top of the agent's own form: never an option, no whitespace, no
// shell metacharacters.
func isPlainToken(s string) bool { return word(s, alnum, flagRest, 199) }

// IsWorkerName: ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$, a background worker's
// short name in an agent's roster (pkg/conversations).
func IsWorkerName(s string) bool { return word(s, alnum, workerRest, 63) }

// withoutVersion drops the version a program name may end in: python3.12 is
// python. None of the names compared with it end in a digit or a '.'.
func withoutVersion(s string) string { return strings.TrimRight(s, "0123456789.") }

// isVersionedLauncher: ^(python|pypy|perl|ruby|php|lua|tclsh|node)[0-9.]*$.
func isVersionedLauncher(s string) bool {
	return slices.Contains([]string{"python", "pypy", "perl", "ruby", "php", "lua", "tclsh", "node"}, withoutVersion(s))
}

// isInterpreter: ^(node|nodejs|bun|python[0-9.]*)$, an interpreter that runs
// an agent's script.
func IsInterpreter(s string) bool {
	return s == "node" || s == "nodejs" || s == "bun" || withoutVersion(s) == "python"
}
