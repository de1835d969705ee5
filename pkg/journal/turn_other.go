//go:build !linux

package journal

import (
	"context"

	"github.com/kittymux/kittymux/pkg/statefile"
)

// turn: writers take the lock in flock's order here (see turn_linux.go).
type turn struct{}

func (j *Journal) takeTurn(context.Context, *statefile.Dir) *turn { return nil }

func (t *turn) done() {}
