package plan

import (
	"fmt"
	"strings"

	"github.com/kittymux/kittymux/pkg/agents"
)

// ErrRefusedCombination: the argv would combine flags the agent refuses
// together.
var ErrRefusedCombination = fmt.Errorf("flags the agent refuses together")

// refusedBeside checks the flags kept for a resume. A flag that chooses
// the conversation's id up front changed meaning by version: claude
// 2.1.197 refuses `--session-id` beside `--resume` or `--continue` unless
// `--fork-session` is also given ("--session-id can only be used with
// --continue or --resume if --fork-session is also specified", in its
// binary; its --help says only that --fork-session is for use with
// --resume; 2.1.332 keeps the rule: "--session-id with --continue or
// --resume also needs --fork-session."), and with it the resume would fork another conversation. So
// such a flag never goes beside a resume template: recognition strips the
// definition's id flags, and one kept all the same (a definition that
// does not list the Code's UpFront, a grammar that reads it as a value
// flag) makes the resume refused, and the window is kept as saved.
//
// Why nothing reads this rule from the installed CLI at run time (neither
// its help, which does not state it, nor its binary's error text, which
// does): the argv kittymux builds never holds the id flag beside a resume,
// whatever the version, since the rule's one way to allow it forks the
// conversation, which a resume must never do. No version's rule can make
// that argv refused; only its own would change what a refusal says.
// TestRealClaudeSessionIDBesideResume runs the installed claude on both:
// the argv built here is accepted and resumes the conversation, the
// combination is refused with the error above (and the test fails the
// day a version accepts it, so this comment stays the installed CLI's).
func refusedBeside(s *agents.Set, agentName string, flags []string, mode Mode) error {
	if mode != ModeExact && mode != ModeLatest {
		return nil
	}
	upFront := ""
	if c := agents.CodeOf(agentName); c != nil {
		upFront = c.UpFront
	}
	for _, f := range flags {
		if f == "--" {
			break
		}
		name, _, _ := strings.Cut(f, "=")
		if name == upFront || s.IsIDFlag(agentName, name) {
			return fmt.Errorf("%s: %w: %s, which chooses the id up front, beside a resume (refused, or it would fork the conversation)",
				agentName, ErrRefusedCombination, name)
		}
	}
	return nil
}
