package plan

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/recognize"
)

// ErrNoResume: the agent's definition says it cannot resume a conversation.
var ErrNoResume = errors.New("agent cannot resume a conversation")

// ResumeArgv builds the argv that brings c back in mode: the program, the
// kept flags and the template of the mode. A flag-style template goes after
// the kept flags (before a "--"), a subcommand-style one right after the
// program. The old resume flags were stripped when c was recognised, so none
// is doubled, and prompts were dropped then, so none is replayed. Env is not
// part of the argv.
func ResumeArgv(s *agents.Set, c recognize.Command, mode Mode, id string) ([]string, error) {
	a, ok := lookup(s, c.Agent)
	if !ok {
		return nil, fmt.Errorf("%w %q", agents.ErrUnknownAgent, c.Agent)
	}
	if !a.canResume {
		return nil, fmt.Errorf("%s: %w", a.name, ErrNoResume)
	}
	if len(c.Program) == 0 {
		return nil, fmt.Errorf("%s: the command has no program", a.name)
	}
	var tmpl []string
	switch mode {
	case ModeExact:
		if err := s.CheckID(a.name, id); err != nil {
			return nil, err
		}
		for _, w := range a.def.Exact {
			tmpl = append(tmpl, strings.Replace(w, agents.IDPlaceholder, id, 1))
		}
	case ModeLatest:
		if len(a.def.Latest) == 0 {
			return nil, fmt.Errorf("%s has no way to resume its latest conversation", a.name)
		}
		tmpl = a.def.Latest
	case ModeNew:
		tmpl = a.def.New
	case ModeAsSaved:
		return nil, errors.New("as-saved keeps the saved command: there is no resume argv to build")
	default:
		return nil, fmt.Errorf("unknown mode %q", mode)
	}
	if err := refusedBeside(s, a.name, c.Flags, mode); err != nil {
		return nil, err
	}
	return assemble(c.Program, c.Flags, tmpl), nil
}

func assemble(program, flags, tmpl []string) []string {
	out := slices.Clone(program)
	if len(tmpl) > 0 && !strings.HasPrefix(tmpl[0], "-") {
		return slices.Concat(out, tmpl, flags)
	}
	at := slices.Index(flags, "--")
	if at < 0 {
		at = len(flags)
	}
	return slices.Concat(out, flags[:at], tmpl, flags[at:])
}

// Validate checks a resume record read from an editable session file before
// the restore prompt runs it. It is valid only when argv is exactly what
// kittymux writes for that agent, mode and id: a changed program, an id that
// is an option, words after the id, an env or sh -c wrapper, a prompt or a
// secret all fail.
func Validate(s *agents.Set, agentName string, mode Mode, id string, argv []string) error {
	a, ok := lookup(s, agentName)
	if !ok {
		return fmt.Errorf("%w %q", agents.ErrUnknownAgent, agentName)
	}
	if !a.canResume {
		return fmt.Errorf("%s: %w", a.name, ErrNoResume)
	}
	switch mode {
	case ModeChoose:
		// Its argv is the new conversation's; the id comes with the
		// user's pick, as an exact resume.
		mode = ModeNew
	case ModeExact, ModeLatest, ModeNew:
	case ModeAsSaved:
		return errors.New("mode as-saved has no resume command to check")
	default:
		return fmt.Errorf("unknown mode %q", mode)
	}
	if mode == ModeExact {
		if err := s.CheckID(a.name, id); err != nil {
			return err
		}
	} else if id != "" {
		return fmt.Errorf("mode %s takes no id, got %q", mode, id)
	}
	if len(argv) == 0 {
		return errors.New("the command is empty")
	}
	for i, w := range argv {
		if w == "" {
			return fmt.Errorf("word %d of the command is empty", i+1)
		}
		// C0, DEL and C1 (U+0080–U+009F: 8-bit CSI and OSC among them).
		if strings.ContainsFunc(w, unicode.IsControl) {
			return fmt.Errorf("word %d of the command holds a control character", i+1)
		}
	}
	c, ok := recognize.Argv(s, argv)
	if !ok {
		return fmt.Errorf("program %q is not a known agent", argv[0])
	}
	if c.Agent != a.name {
		return fmt.Errorf("program %q is %s, not %s", argv[0], c.Agent, a.name)
	}
	switch {
	case c.OneShot:
		return fmt.Errorf("the command is a one-shot run (%s), not a conversation", c.OneShotWhy)
	case c.Helper:
		return fmt.Errorf("the command is a helper (%s), not a conversation", c.HelperWhy)
	case c.PromptDropped:
		return errors.New("the command holds a prompt argument")
	case c.SecretDropped:
		return errors.New("the command holds a secret flag")
	}
	want, err := ResumeArgv(s, c, mode, id)
	if err != nil {
		return err
	}
	if !slices.Equal(want, argv) {
		return fmt.Errorf("the command is not what kittymux writes for %s %s: got %q, want %q", a.name, mode, argv, want)
	}
	return nil
}
