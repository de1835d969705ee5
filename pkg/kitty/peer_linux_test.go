package kitty

import (
	"net"
	"os"
	"path/filepath"
	"testing"
)

// TestPeerUIDIsTheListeners: SO_PEERCRED says who listens; here this
// process, so this user.
func TestPeerUIDIsTheListeners(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	uid, known, err := peerUID(conn)
	if err != nil || !known || uid != os.Getuid() {
		t.Fatalf("peerUID = %d, %v, %v; want %d", uid, known, err, os.Getuid())
	}
}
