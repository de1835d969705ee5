package agents

import (
	"regexp"
	"regexp/syntax"
	"sync"
)

// States of an agent session, read from what kitty shows of a window, the
// agent's own record or its hooks, as the journal keeps them.
const (
	StateUnknown = "unknown"
	StateWorking = "working"
	StateIdle    = "idle"
	// StateAttention: the agent waits for the user (a permission prompt;
	// kitty's needs_attention). It is not working: a run ends there too.
	StateAttention = "needs_attention"
)

// titleREs caches compiled title patterns; definitions are few and fixed
// for the life of a process.
var titleREs sync.Map // pattern → *regexp.Regexp

func titleRE(pattern string) (*regexp.Regexp, error) {
	if re, ok := titleREs.Load(pattern); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	titleREs.Store(pattern, re)
	return re, nil
}

// checkTitles only parses the patterns, which gives regexp.Compile's own
// errors: a pattern is compiled when a title is first matched against it.
func checkTitles(file, name string, d Definition) error {
	for field, ps := range map[string][]string{"title_working": d.TitleWorking, "title_idle": d.TitleIdle} {
		for _, p := range ps {
			if _, err := syntax.Parse(p, syntax.Perl); err != nil {
				return fieldErr(file, name, field, "%q is not a regular expression: %v", p, err)
			}
		}
	}
	return nil
}

// TitleState says from a window title whether the agent is working
// (StateWorking) or waiting for input (StateIdle), by its definition's title
// patterns; "" when the definition has none or none match.
func (s *Set) TitleState(agentName, title string) string {
	a, ok := s.Agent(agentName)
	if !ok {
		return ""
	}
	for _, c := range []struct {
		state    string
		patterns []string
	}{{StateWorking, a.Def.TitleWorking}, {StateIdle, a.Def.TitleIdle}} {
		for _, p := range c.patterns {
			if re, err := titleRE(p); err == nil && re.MatchString(title) {
				return c.state
			}
		}
	}
	return ""
}
