package kitty

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"

	"github.com/kittymux/kittymux/pkg/userfile"
)

// Setting is one line of a kitty configuration: its value and where it is.
type Setting struct {
	Value string `json:"value"`
	File  string `json:"file"`
	Line  int    `json:"line"`
}

// Where says where s is, for messages.
func (s Setting) Where() string { return fmt.Sprintf("%s:%d", s.File, s.Line) }

// Conf is what kittymux needs from kitty's configuration, read as kitty
// reads it (kitty/conf/utils.py): continuation lines joined, a key and its
// value split at the first run of blanks, include and globinclude followed
// (~ and $VARS expanded, relative to the including file), each file read
// once, the last value of an option winning. Discovery (the socket kitty
// listens on), setup and doctor all read it here.
type Conf struct {
	// Files are the files read, the main kitty.conf first. A missing
	// kitty.conf is not an error: kitty then runs on its defaults.
	Files    []string
	ListenOn *Setting
	AllowRC  *Setting
	// Watchers are the watcher lines, their values resolved as kitty
	// resolves them (absolute, ~ expanded).
	Watchers []Setting
	// Includes are the include lines, their values the files they lead to.
	Includes []Setting
	// Unread says what kittymux does not follow (geninclude runs a
	// program, envinclude reads kitty's environment): settings there are
	// not seen.
	Unread []string
}

// ConfOptions says how to read a configuration.
type ConfOptions struct {
	Home   string
	Getenv func(string) string
	// Skip is a file left out (kittymux's own included file, when setup
	// asks what the user's configuration has without it).
	Skip string
}

// maxIncludeDepth bounds include chains: kitty itself reads each file once,
// which ends loops; this ends anything else.
const maxIncludeDepth = 16

// keyRE is kitty's key_pat (kitty/conf/utils.py).
var keyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9_-]*)\s+(.+)$`) })

// maxConfSize caps a kitty.conf read: kitty's own commented kitty.conf is
// about 100 KB.
const maxConfSize = 4 << 20

// ReadConf reads the kitty configuration whose main file is path. A missing
// file is passed over, as kitty does. An include kittymux cannot read (a
// directory, a FIFO or device, which is never waited on, a file too big) or
// one nested too deep is passed over too, and the reading goes on as
// kitty's does; the error then names each, and the Conf returned holds
// everything else.
func ReadConf(path string, o ConfOptions) (Conf, error) {
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	r := &confReader{o: o, seen: map[string]bool{}, confDir: filepath.Dir(filepath.Clean(path))}
	if o.Skip != "" {
		r.skip = filepath.Clean(o.Skip)
	}
	r.file(path, 0)
	return r.c, errors.Join(r.errs...)
}

type confReader struct {
	o    ConfOptions
	c    Conf
	seen map[string]bool
	skip string
	// confDir is kitty's configuration directory, against which watcher
	// paths resolve wherever the line is.
	confDir string
	errs    []error
}

func (r *confReader) file(path string, depth int) {
	path = filepath.Clean(path)
	if r.seen[path] || path == r.skip {
		return
	}
	r.seen[path] = true
	// A FIFO or device among the includes is refused, never waited on.
	data, err := userfile.Read(path, maxConfSize)
	if errors.Is(err, fs.ErrNotExist) {
		return // kitty logs a missing include and goes on
	}
	if err != nil {
		r.errs = append(r.errs, fmt.Errorf("read kitty configuration %s: %w", path, err))
		return
	}
	r.c.Files = append(r.c.Files, path)
	for _, l := range logicalLines(data) {
		r.line(path, l, depth)
	}
}

type confLine struct {
	text string
	num  int
}

// logicalLines joins kitty's continuation lines: a line whose first
// non-blank character is a backslash continues the one before it.
func logicalLines(data []byte) []confLine {
	var out []confLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), maxConfSize)
	n := 0
	for sc.Scan() {
		n++
		t := strings.TrimLeft(sc.Text(), " \t")
		if rest, ok := strings.CutPrefix(t, `\`); ok && len(out) > 0 {
			out[len(out)-1].text += rest
			continue
		}
		out = append(out, confLine{text: t, num: n})
	}
	return out
}

func (r *confReader) line(path string, l confLine, depth int) {
	t := strings.TrimSpace(l.text)
	if t == "" || strings.HasPrefix(t, "#") {
		return
	}
	m := keyRE().FindStringSubmatch(t)
	if m == nil {
		return
	}
	key, val := m[1], strings.TrimSpace(m[2])
	here := Setting{Value: val, File: path, Line: l.num}
	base := filepath.Dir(path)
	switch key {
	case "listen_on":
		r.c.ListenOn = &here
	case "allow_remote_control":
		r.c.AllowRC = &here
	case "watcher":
		here.Value = r.resolve(val, r.confDir)
		r.c.Watchers = append(r.c.Watchers, here)
	case "include", "globinclude":
		if depth >= maxIncludeDepth {
			r.errs = append(r.errs, fmt.Errorf("%s: includes nested more than %d deep", here.Where(), maxIncludeDepth))
			return
		}
		targets := []string{r.resolve(val, base)}
		if key == "globinclude" {
			targets, _ = userfile.Glob(targets[0])
		}
		for _, target := range targets {
			inc := here
			inc.Value = target
			r.c.Includes = append(r.c.Includes, inc)
			r.file(target, depth+1)
		}
	case "envinclude", "geninclude":
		r.c.Unread = append(r.c.Unread, fmt.Sprintf("%s %s (%s)", key, val, here.Where()))
	}
}

// resolve turns a path from the configuration into the file kitty opens:
// ~ and environment variables expanded (KITTY_OS too), relative to base
// (the including file's directory for includes, kitty's configuration
// directory for watchers).
func (r *confReader) resolve(val, base string) string {
	if val == "~" || strings.HasPrefix(val, "~/") {
		val = r.o.Home + val[1:]
	}
	val = os.Expand(val, func(k string) string {
		if k == "KITTY_OS" {
			return kittyOS()
		}
		return r.o.Getenv(k)
	})
	if !filepath.IsAbs(val) {
		val = filepath.Join(base, val)
	}
	return filepath.Clean(val)
}

func kittyOS() string {
	switch runtime.GOOS {
	case "darwin":
		return "macos"
	default:
		return runtime.GOOS
	}
}

// IncludesFile reports whether the configuration includes file.
func (c Conf) IncludesFile(file string) (Setting, bool) {
	file = filepath.Clean(file)
	for _, in := range c.Includes {
		if in.Value == file {
			return in, true
		}
	}
	return Setting{}, false
}

// HasWatcher reports whether the configuration loads the watcher file.
func (c Conf) HasWatcher(file string) (Setting, bool) {
	file = filepath.Clean(file)
	for _, w := range c.Watchers {
		if w.Value == file {
			return w, true
		}
	}
	return Setting{}, false
}

// HasListenOn reports a listen_on that opens a socket.
func (c Conf) HasListenOn() bool {
	return c.ListenOn != nil && c.ListenOn.Value != "none" && c.ListenOn.Value != ""
}

// RemoteControl says what allow_remote_control lets kittymux do: "socket"
// (yes, socket, socket-only), "password" (requests need a password, which
// kittymux does not send) or "off" (no, or not set: kitty's default).
func (c Conf) RemoteControl() string {
	if c.AllowRC == nil {
		return "off"
	}
	switch strings.ToLower(c.AllowRC.Value) {
	case "y", "yes", "true", "socket", "socket-only":
		return "socket"
	case "password":
		return "password"
	}
	return "off"
}
