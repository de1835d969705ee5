package kitty_test

import (
	"context"
	"testing"

	"github.com/kittymux/kittymux/pkg/testkit/kittytest"
)

// BenchmarkLS is one scanner poll's kitty round trip: dial, ls, decode twice.
func BenchmarkLS(b *testing.B) {
	f := kittytest.StartFake(b, kittytest.FakeOptions{LS: kittytest.Fixture(b, "0.48.2/ls.json")})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Client.LS(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
