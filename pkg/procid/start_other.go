//go:build !linux && !darwin

package procid

import "time"

func start(int) string { return "" }

// Started is when process pid started; zero: not known here.
func Started(int) time.Time { return time.Time{} }

// Runs cannot read another process here: false.
func Runs(int, string) bool { return false }
