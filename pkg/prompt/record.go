// Package prompt is the restore prompt that runs in each restored agent
// window: it validates the record the session file holds (resumerecord),
// asks once (one key), and replaces itself with the answer.
//
// It is its own small binary (cmd/kittymux-resume) because it starts in
// every restored window: no cobra, nothing read that the prompt does not use.
package prompt
