package kitty

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerUID is the user of the process at the other end of conn
// (LOCAL_PEERCRED, what getpeereid reads).
func peerUID(conn net.Conn) (uid int, known bool, err error) {
	return peerCred(conn, func(fd int) (int, error) {
		cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		if err != nil {
			return -1, err
		}
		return int(cred.Uid), nil
	})
}
