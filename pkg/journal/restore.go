package journal

import "time"

// MaxRestores bounds the restore outcomes kept (besides MaxAge).
const MaxRestores = 200

// Outcomes of a restore prompt.
const (
	OutcomeResumed      = "resumed"
	OutcomeNew          = "new"
	OutcomeShell        = "shell"
	OutcomeAgentMissing = "agent-missing"
	// OutcomeFailed: the command was chosen but could not be run.
	OutcomeFailed = "failed"
	// OutcomeAttached: the conversation runs in the agent's background
	// service, and the window attached to it there.
	OutcomeAttached = "attached"
)

// Restore is what the restore prompt did in one restored window. Field
// names are stable.
type Restore struct {
	At      time.Time `json:"at"`
	Agent   string    `json:"agent"`
	Mode    string    `json:"mode"`
	ID      string    `json:"id,omitempty"`
	Dir     string    `json:"dir,omitempty"`
	Tab     string    `json:"tab,omitempty"`
	Outcome string    `json:"outcome"`
	// Why says what led to a shell or a failure.
	Why string `json:"why,omitempty"`
	// Asked: the user answered; otherwise the prompt ran without asking.
	Asked bool `json:"asked"`
	// Where it ran: kitty's KITTY_PID and KITTY_WINDOW_ID.
	KittyPID int `json:"kitty_pid,omitempty"`
	WindowID int `json:"window_id,omitempty"`
	// PID is the prompt's process, which the agent it execs keeps.
	PID int `json:"pid,omitempty"`
}

// AddRestore records a restore prompt's outcome.
func (j *Journal) AddRestore(r Restore) error {
	_, err := j.Update(func(f *File) error {
		f.Restores = append(f.Restores, r)
		return nil
	})
	return err
}

// RestoresSince returns the outcomes recorded at or after t, oldest first.
func (j *Journal) RestoresSince(t time.Time) ([]Restore, error) {
	if j.Off {
		return nil, ErrOff
	}
	f, err := j.Read()
	if err != nil {
		return nil, err
	}
	var out []Restore
	for _, r := range f.Restores {
		if !r.At.Before(t) {
			out = append(out, r)
		}
	}
	return out, nil
}
