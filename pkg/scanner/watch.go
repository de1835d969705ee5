package scanner

import (
	"context"

	"github.com/fsnotify/fsnotify"

	"github.com/kittymux/kittymux/pkg/logs"
)

// Watcher wakes the loop when something appears in or leaves a socket
// directory: a kitty started or quit. The slow rescan covers what a
// watcher misses (a directory made later, an abstract socket).
type Watcher struct {
	w       *fsnotify.Watcher
	watched map[string]bool
	logf    logs.Logf
}

// Watch starts a watcher that sends on wake, never blocking, until ctx ends.
func Watch(ctx context.Context, wake chan<- struct{}, logf logs.Logf) (*Watcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	go func() {
		defer w.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
					select {
					case wake <- struct{}{}:
					default:
					}
				}
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				logf.Printf("watch socket directories: %v", err)
			}
		}
	}()
	return &Watcher{w: w, watched: map[string]bool{}, logf: logf}, nil
}

// Add watches dirs not watched yet; one that does not exist is tried again
// at the next Add.
func (w *Watcher) Add(dirs ...string) {
	for _, d := range dirs {
		if d == "" || w.watched[d] {
			continue
		}
		if err := w.w.Add(d); err == nil {
			w.watched[d] = true
		}
	}
}
