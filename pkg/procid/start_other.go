//go:build !linux && !darwin

package procid

func start(int) string { return "" }
