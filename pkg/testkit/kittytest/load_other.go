//go:build !linux

package kittytest

// machineLoad has no figures off Linux: bounds stay at their base, times
// $KITTYMUX_TEST_SLOWDOWN.
func machineLoad() (load, pressure float64, ok bool) { return 0, 0, false }
