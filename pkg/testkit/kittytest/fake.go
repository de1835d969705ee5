// Package kittytest holds test doubles for kitty: a fake kitty that speaks the
// real remote-control protocol on a unix socket, a real kitty under Xvfb, and
// fake agents whose argv is recorded.
package kittytest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/shell"

	"github.com/kittymux/kittymux/pkg/kitty"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// TB is what the helpers need of a test: testing.TB has it, and testscript
// commands can adapt to it.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// Request is one request the fake received.
type Request struct {
	Cmd        string
	Version    []int
	NoResponse bool
	Payload    map[string]any
}

// Fake is a fake kitty: it serves ls from a fixture, writes a session file
// for `action save_as_session ... PATH`, applies set-user-vars to what it
// serves and saves, and records every request.
type Fake struct {
	Addr    kitty.Address
	Client  *kitty.Client
	Version kitty.Version

	mu       sync.Mutex
	ls       []any  // the ls document, mutable by set-user-vars
	session  []byte // what save_as_session writes
	requests []Request
	hook     func(Request) (reply []byte, handled bool)
	ln       net.Listener
	wg       sync.WaitGroup
}

// FakeOptions configures StartFake.
type FakeOptions struct {
	LS      []byte        // the ls document (data decoded once), e.g. a fixture
	Session []byte        // what save_as_session writes; nil: refuse with an error
	Version kitty.Version // default 0.48.2
	Dir     string        // where the socket goes; default a fresh short temp dir
}

// Fixture reads a file of the repository's testdata/kitty (real kitty
// output), found by walking up from the test's directory to go.mod: tests
// never read outside the repository.
func Fixture(t TB, rel string) []byte {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("fixture %s: %v", rel, err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			b, err := os.ReadFile(filepath.Join(dir, "testdata", "kitty", rel))
			if err != nil {
				t.Fatalf("fixture: %v", err)
			}
			return b
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("fixture %s: no go.mod above %s", rel, dir)
		}
		dir = parent
	}
}

// ShortTempDir is a temp dir with a short path: unix socket paths are
// limited to about 104 bytes and t.TempDir() can be longer.
func ShortTempDir(t TB) string {
	t.Helper()
	d, err := os.MkdirTemp("", "km")
	if err != nil {
		t.Fatalf("%v", err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// StartFake starts a fake kitty; it stops with the test.
func StartFake(t TB, o FakeOptions) *Fake {
	t.Helper()
	if o.Version.IsZero() {
		o.Version = kitty.Version{Major: 0, Minor: 48, Patch: 2}
	}
	if o.Dir == "" {
		o.Dir = ShortTempDir(t)
	}
	f := &Fake{Version: o.Version, session: o.Session}
	if o.LS != nil {
		if err := f.SetLS(o.LS); err != nil {
			t.Fatalf("fake kitty: ls fixture: %v", err)
		}
	}
	path := filepath.Join(o.Dir, "kitty-"+strconv.Itoa(os.Getpid()))
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatalf("fake kitty: %v", err)
	}
	f.ln = ln
	f.Addr = kitty.Address{Path: path}
	f.Client = kitty.NewClient(f.Addr)
	f.wg.Add(1)
	go f.serve()
	t.Cleanup(f.Close)
	return f
}

// Close stops the fake and removes its socket, as kitty does on exit.
func (f *Fake) Close() {
	f.ln.Close()
	f.wg.Wait()
}

// Hook lets a test answer requests itself: return the raw bytes to send
// (framing included, so bad replies can be sent) and true.
func (f *Fake) Hook(h func(Request) ([]byte, bool)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hook = h
}

// Requests returns what the fake received so far.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

// ForgetRequests drops the requests recorded so far: a long run (a
// simulated day of polls) would otherwise keep every one.
func (f *Fake) ForgetRequests() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = nil
}

// SetLS replaces the ls document.
func (f *Fake) SetLS(doc []byte) error {
	// UseNumber: created_at (ns) does not fit a float64.
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var ls []any
	if err := d.Decode(&ls); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ls = ls
	return nil
}

func (f *Fake) serve() {
	defer f.wg.Done()
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			defer c.Close()
			f.handle(c)
		}()
	}
}

var framePrefix, frameSuffix = []byte("\x1bP@kitty-cmd"), []byte("\x1b\\")

func (f *Fake) handle(c net.Conn) {
	var buf []byte
	chunk := make([]byte, 4096)
	for !bytes.Contains(buf, frameSuffix) {
		n, err := c.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if err != nil {
			return
		}
	}
	body, ok := bytes.CutPrefix(buf[:bytes.Index(buf, frameSuffix)], framePrefix)
	if !ok {
		return // kitty ignores what is not a command
	}
	var req struct {
		Cmd        string         `json:"cmd"`
		Version    []int          `json:"version"`
		NoResponse bool           `json:"no_response"`
		Payload    map[string]any `json:"payload"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return
	}
	r := Request{Cmd: req.Cmd, Version: req.Version, NoResponse: req.NoResponse, Payload: req.Payload}
	f.mu.Lock()
	f.requests = append(f.requests, r)
	hook := f.hook
	f.mu.Unlock()
	if hook != nil {
		if raw, handled := hook(r); handled {
			_, _ = c.Write(raw)
			return
		}
	}
	resp := f.respond(r)
	if r.NoResponse {
		return
	}
	b, _ := json.Marshal(resp)
	_, _ = c.Write(append(append(append([]byte{}, framePrefix...), b...), frameSuffix...))
}

func fail(msg string) map[string]any { return map[string]any{"ok": false, "error": msg} }
func ok(data any) map[string]any {
	if data == nil {
		return map[string]any{"ok": true}
	}
	return map[string]any{"ok": true, "data": data}
}

// minVersion is when each command appeared (kitty.VersionSaveAsSession and the others).
var minVersion = map[string]kitty.Version{
	"set-user-vars": {Major: 0, Minor: 30},
	"action":        {Major: 0, Minor: 32, Patch: 2},
}

func (f *Fake) respond(r Request) map[string]any {
	if len(r.Version) >= 2 && (r.Version[0] > f.Version.Major || r.Version[0] == f.Version.Major && r.Version[1] > f.Version.Minor) {
		return fail("The kitty client you are using to send remote commands is newer than this kitty instance. This is not supported.")
	}
	if v, known := minVersion[r.Cmd]; known && !f.Version.AtLeast(v) {
		return fail(fmt.Sprintf("No remote command named %s", r.Cmd))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	str := func(k string) string { s, _ := r.Payload[k].(string); return s }
	switch r.Cmd {
	case "ls":
		doc, _ := json.Marshal(f.ls)
		return ok(string(doc))
	case "set-user-vars":
		id, err := matchID(str("match"))
		if err != nil {
			return fail(err.Error())
		}
		w := f.window(id)
		if w == nil {
			return fail("No matching windows for expression: " + str("match"))
		}
		uv, _ := w["user_vars"].(map[string]any)
		if uv == nil {
			uv = map[string]any{}
			w["user_vars"] = uv
		}
		vars, _ := r.Payload["var"].([]any)
		for _, v := range vars {
			s, _ := v.(string)
			// A name alone unsets the variable, as in kitty.
			if k, val, ok := strings.Cut(s, "="); ok {
				uv[k] = val
			} else {
				delete(uv, k)
			}
		}
		return ok(nil)
	case "action":
		return f.action(str("action"))
	case "launch":
		return ok("42")
	case "get-text":
		return ok("")
	case "send-text", "close-window":
		return ok(nil)
	}
	return fail("No remote command named " + r.Cmd)
}

func matchID(m string) (int, error) {
	s, ok := strings.CutPrefix(m, "id:")
	id, err := strconv.Atoi(s)
	if !ok || err != nil {
		return 0, fmt.Errorf("fake kitty understands only id:N matches, not %q", m)
	}
	return id, nil
}

func (f *Fake) window(id int) map[string]any {
	for _, o := range f.ls {
		om, _ := o.(map[string]any)
		tabs, _ := om["tabs"].([]any)
		for _, t := range tabs {
			tm, _ := t.(map[string]any)
			ws, _ := tm["windows"].([]any)
			for _, w := range ws {
				wm, _ := w.(map[string]any)
				if n, _ := wm["id"].(json.Number); n.String() == strconv.Itoa(id) {
					return wm
				}
			}
		}
	}
	return nil
}

func (f *Fake) action(s string) map[string]any {
	words, err := shell.Fields(s, nil)
	if err != nil || len(words) == 0 {
		return fail(fmt.Sprintf("Unknown action: %s", s))
	}
	switch words[0] {
	case "save_as_session", "goto_session":
		if !f.Version.AtLeast(kitty.VersionSaveAsSession) {
			return fail("Unknown action: " + words[0])
		}
	default:
		return ok(true)
	}
	var path string
	for _, w := range words[1:] {
		if !strings.HasPrefix(w, "-") {
			path = w
		}
	}
	if words[0] == "goto_session" {
		if _, err := os.Stat(path); err != nil {
			return fail("Failed to open session file: " + path)
		}
		return ok(true)
	}
	if f.session == nil {
		return fail("fake kitty has no session to save")
	}
	if !filepath.IsAbs(path) {
		return fail("fake kitty: save_as_session wants an absolute path, got " + path)
	}
	data, err := f.sessionWithVars()
	if err != nil {
		return fail(err.Error())
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fail(err.Error())
	}
	return ok(true)
}

// sessionWithVars writes each window's user vars onto its launch line, as
// kitty's save_as_session does (--var=K=V, every var the window has).
func (f *Fake) sessionWithVars() ([]byte, error) {
	file, err := sessionfile.Parse(f.session)
	if err != nil {
		return nil, err
	}
	for _, ref := range file.Windows() {
		l := ref.Line.Launch
		if l.Unserialize == nil {
			continue
		}
		w := f.window(l.Unserialize.ID())
		if w == nil {
			continue
		}
		uv, _ := w["user_vars"].(map[string]any)
		l.Options = slices.DeleteFunc(l.Options, func(o sessionfile.Option) bool { return o.Name == "--var" })
		for _, k := range slices.Sorted(maps.Keys(uv)) {
			v, _ := uv[k].(string)
			l.Options = append(l.Options, sessionfile.Option{Name: "--var", Value: k + "=" + v, HasValue: true})
		}
	}
	return file.Encode()
}
