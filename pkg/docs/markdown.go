package docs

import (
	"regexp"
	"strings"
)

// Page is a Markdown file split into what the checks read: its prose (code
// blocks and code spans taken out), its code (each block's lines and each
// span), and its headings' anchors.
type Page struct {
	Prose   string
	Code    []string
	Anchors map[string]bool
}

var (
	codeSpanRE = regexp.MustCompile("`([^`]+)`")
	linkRE     = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	headingRE  = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

// Parse splits a Markdown text. A fenced block's lines are each one entry of
// Code; a code span may run over a line break within its paragraph.
func Parse(text string) Page {
	p := Page{Anchors: map[string]bool{}}
	var prose []string
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			} else {
				p.Code = append(p.Code, line)
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			prose = append(prose, "")
			continue
		}
		if m := headingRE.FindStringSubmatch(line); m != nil {
			p.Anchors[Slug(m[1])] = true
		}
		prose = append(prose, line)
	}
	for _, para := range strings.Split(strings.Join(prose, "\n"), "\n\n") {
		para = codeSpanRE.ReplaceAllStringFunc(para, func(s string) string {
			p.Code = append(p.Code, strings.Join(strings.Fields(strings.Trim(s, "`")), " "))
			return "code"
		})
		p.Prose += para + "\n\n"
	}
	return p
}

// Links returns the targets of the page's links and images, in order.
func (p Page) Links() []string {
	var out []string
	for _, m := range linkRE.FindAllStringSubmatch(p.Prose, -1) {
		out = append(out, m[1])
	}
	return out
}

// Slug is the anchor GitHub gives a heading: lower case, code marks and
// punctuation dropped, spaces as hyphens.
func Slug(heading string) string {
	heading = strings.ToLower(heading)
	var b strings.Builder
	for _, r := range heading {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127 && isLetter(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isLetter(r rune) bool { return strings.ToUpper(string(r)) != strings.ToLower(string(r)) }
