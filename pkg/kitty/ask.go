package kitty

import (
	"context"
	"sync"
	"time"
)

// AskTimeout is how long each kitty has to answer when several are asked:
// a kitty answers ls in milliseconds, so one that takes seconds is hung.
const AskTimeout = 2 * time.Second

// Answer is one kitty's ls, or why there is none.
type Answer struct {
	Instance Instance
	LS       []OSWindow
	Err      error
}

// LSAll asks every kitty for ls at once, each with its own deadline of
// timeout (0: AskTimeout) within ctx, so N hung kitties cost one deadline,
// not N. Answers come in the order of insts. A kitty whose every OS window
// is a panel or the quick-access terminal gets Utility set: where its
// process cannot be read (macOS), ls is what says so.
func LSAll(ctx context.Context, insts []Instance, timeout time.Duration) []Answer {
	if timeout <= 0 {
		timeout = AskTimeout
	}
	out := make([]Answer, len(insts))
	var wg sync.WaitGroup
	for i, in := range insts {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			ls, err := NewClient(in.Addr).LS(ctx)
			if in.Utility == "" && len(ls) > 0 {
				in.Utility = ls[0].Utility()
				for _, o := range ls[1:] {
					if o.Utility() != in.Utility {
						in.Utility = ""
					}
				}
			}
			out[i] = Answer{Instance: in, LS: ls, Err: err}
		})
	}
	wg.Wait()
	return out
}
