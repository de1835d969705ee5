// Package factorytest makes the Factory a command test runs with.
package factorytest

import (
	"io"
	"strings"
	"testing"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// New returns the Factory of factory.New with test streams: an empty input
// and two buffers for Out and ErrOut, returned, that a command writing from
// several goroutines and the test reading them can share; not a terminal.
// Its state and configuration are under t.TempDir() and its environment is
// empty: a test sets Paths, Getenv, Discover and the rest as it needs.
func New(t testing.TB) (f *factory.Factory, out, errOut *kittytest.Buffer) {
	out, errOut = &kittytest.Buffer{}, &kittytest.Buffer{}
	return Writing(t, out, errOut), out, errOut
}

// Writing is New writing to the test's own out and errOut.
func Writing(t testing.TB, out, errOut io.Writer) *factory.Factory {
	f := factory.New()
	f.IO = &factory.IOStreams{In: strings.NewReader(""), Out: out, ErrOut: errOut}
	f.Paths = paths.Under(t.TempDir())
	f.Getenv = func(string) string { return "" }
	// The kitties running on the machine are none of a test's business:
	// tests that want some set their own (other tests' kitties run beside).
	f.Programs = nil
	return f
}
