package kitty

import (
	"errors"
	"fmt"
	"net"
	"os/user"
	"strconv"
)

// peerCred runs read on conn's descriptor: the uid it reads.
func peerCred(conn net.Conn, read func(fd int) (int, error)) (int, bool, error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return -1, false, errors.New("not a unix socket")
	}
	sc, err := uc.SyscallConn()
	if err != nil {
		return -1, false, err
	}
	uid, rerr := -1, error(nil)
	if err := sc.Control(func(fd uintptr) { uid, rerr = read(int(fd)) }); err != nil {
		return -1, false, err
	}
	if rerr != nil {
		return -1, false, rerr
	}
	return uid, true, nil
}

// userName names uid for people: "nobody (uid 65534)".
func userName(uid int) string {
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil && u.Username != "" {
		return fmt.Sprintf("%s (uid %d)", Printable(u.Username), uid)
	}
	return fmt.Sprintf("uid %d", uid)
}
