package kittytest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// NobodyUID is the user a Squatter runs as: Debian's nobody.
const NobodyUID = 65534

// Squatter is a process of another user (nobody) listening on a unix socket
// at a path (or an abstract '@name') where a kitty of the test's user was
// to listen. It answers every request with a kitty reply naming a window of
// its own, and logs what it was sent.
type Squatter struct {
	Path string
	log  string
}

// squatScript listens on argv[1], logs each connection's bytes to argv[2]
// and replies as kitty would to ls. Python: it must run as nobody, who
// cannot read the test's build directory.
const squatScript = `
import socket, struct, sys
path, log = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("\0" + path[1:] if path.startswith("@") else path)
s.listen(16)
open(log, "a").write("ready\n")
reply = b'\x1bP@kitty-cmd{"ok": true, "data": "[{\\"id\\": 1, \\"tabs\\": [{\\"id\\": 1, \\"title\\": \\"squatted\\", \\"windows\\": [{\\"id\\": 1, \\"title\\": \\"the squatter\\", \\"pid\\": 1, \\"cwd\\": \\"/\\", \\"cmdline\\": [\\"claude\\"], \\"foreground_processes\\": []}]}]}]"}\x1b\\'
while True:
    c, _ = s.accept()
    pid = struct.unpack("3i", c.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))[0]
    c.settimeout(2)
    data = b""
    try:
        while not data.endswith(b"\x1b\\"):
            b = c.recv(65536)
            if not b:
                break
            data += b
    except Exception:
        pass
    open(log, "a").write("conn %d %d %r\n" % (pid, len(data), data[:200]))
    if data:
        try:
            c.sendall(reply)
        except Exception:
            pass
    c.close()
`

// NeedRoot skips the test, or fails it when KITTYMUX_E2E=require, unless it
// runs as root: only root starts a process of another user.
func NeedRoot(t testing.TB) {
	t.Helper()
	if os.Getuid() == 0 {
		return
	}
	msg := "this test starts a process of user nobody: it needs root (CI runs as root)"
	if os.Getenv("KITTYMUX_E2E") == "require" {
		t.Fatal(msg + " (KITTYMUX_E2E=require)")
	}
	t.Skip(msg)
}

// SquatDir is a directory that every user may create files in (sticky, as
// /tmp is), short enough for a socket path.
func SquatDir(t testing.TB) string {
	t.Helper()
	d, err := os.MkdirTemp("", "kmsq")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o1777); err != nil {
		t.Fatal(err)
	}
	return d
}

// Squat starts a Squatter on path as nobody (NeedRoot first); it is ended
// when the test ends.
func Squat(t testing.TB, path string) *Squatter {
	t.Helper()
	NeedRoot(t)
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Fatalf("the squatter needs %s: %v", py, err)
	}
	logDir := SquatDir(t)
	s := &Squatter{Path: path, log: filepath.Join(logDir, "log")}
	cmd := exec.Command(py, "-c", squatScript, path, s.log)
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: NobodyUID, Gid: NobodyUID}}
	out := &Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the squatter: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-done })
	b := NewBound(t, "the squatter to listen on "+path, 10*time.Second)
	for !strings.Contains(s.logText(), "ready") {
		select {
		case <-done:
			t.Fatalf("the squatter exited: %v\n%s", cmd.ProcessState, out)
		default:
		}
		if b.Over() {
			t.Fatalf("%v\n%s", b, out)
		}
		time.Sleep(pollInterval)
	}
	return s
}

func (s *Squatter) logText() string {
	b, _ := os.ReadFile(s.log)
	return string(b)
}

// Received is what the squatter was sent: one line per connection, with
// the connecting process's pid, the byte count and the first bytes. ""
// when nothing connected.
func (s *Squatter) Received() string {
	return strings.TrimSpace(strings.TrimPrefix(s.logText(), "ready\n"))
}

// SentBy reports whether a connection from process pid sent the squatter a
// byte. (Other processes of the machine, such as another kittymux looking
// for kitties, may connect too: the test speaks for its own.)
func (s *Squatter) SentBy(pid int) bool {
	for _, line := range strings.Split(s.Received(), "\n") {
		f := strings.Fields(line)
		if len(f) > 2 && f[0] == "conn" && f[1] == strconv.Itoa(pid) && f[2] != "0" {
			return true
		}
	}
	return false
}
