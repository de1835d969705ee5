package kitty

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerUID is the user of the process at the other end of conn, as the
// kernel recorded it when that process listened (SO_PEERCRED).
func peerUID(conn net.Conn) (uid int, known bool, err error) {
	return peerCred(conn, func(fd int) (int, error) {
		cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
		if err != nil {
			return -1, err
		}
		return int(cred.Uid), nil
	})
}
