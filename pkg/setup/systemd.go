package setup

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// systemctlTimeout bounds one systemctl call: a wedged bus must not hang
// setup or doctor.
const systemctlTimeout = 10 * time.Second

// SystemctlUser is the real user manager, through `systemctl --user`.
type SystemctlUser struct {
	// Path is systemctl's path.
	Path string
}

// FindSystemd returns the user manager, or nil where there is no
// systemctl (macOS, or a system without systemd).
func FindSystemd() Systemd {
	p, err := exec.LookPath("systemctl")
	if err != nil {
		return nil
	}
	return SystemctlUser{Path: p}
}

func (s SystemctlUser) output(ctx context.Context, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, systemctlTimeout)
	defer cancel()
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, s.Path, append([]string{"--user"}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if err != nil {
		return strings.TrimSpace(out.String()), fmt.Errorf("systemctl --user %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// Running: is-system-running names the manager's state; "offline" (or no
// answer) means no user manager runs. It exits non-zero when degraded,
// which still runs units.
func (s SystemctlUser) Running(ctx context.Context) bool {
	out, _ := s.output(ctx, "is-system-running")
	switch out {
	case "running", "degraded", "starting", "initializing", "maintenance":
		return true
	}
	return false
}

func (s SystemctlUser) Enabled(ctx context.Context, unit string) bool {
	out, err := s.output(ctx, "is-enabled", unit)
	return err == nil && out == "enabled"
}

func (s SystemctlUser) Active(ctx context.Context, unit string) bool {
	out, err := s.output(ctx, "is-active", unit)
	return err == nil && out == "active"
}

func (s SystemctlUser) Run(ctx context.Context, args ...string) error {
	_, err := s.output(ctx, args...)
	return err
}
