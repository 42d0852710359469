package attach

import (
	"log/slog"
	"net"
	"os"

	"charm.land/ssh"
	"golang.org/x/sys/unix"
)

// samePeer admits unix-socket peers running as this process's uid and
// closes every other connection before the SSH handshake (SO_PEERCRED).
func samePeer(log *slog.Logger) ssh.ConnCallback {
	return func(_ ssh.Context, conn net.Conn) net.Conn {
		uc, ok := conn.(*net.UnixConn)
		if !ok {
			return conn // TCP listeners authenticate by key instead
		}
		raw, err := uc.SyscallConn()
		if err != nil {
			log.Warn("attach: peer credentials unavailable; refusing", "err", err)
			return nil
		}
		var cred *unix.Ucred
		var cerr error
		if err := raw.Control(func(fd uintptr) { cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) }); err != nil || cerr != nil {
			log.Warn("attach: peer credentials unavailable; refusing", "err", err, "cerr", cerr)
			return nil
		}
		if int(cred.Uid) != os.Getuid() {
			log.Warn("attach: refused a client of another user", "uid", cred.Uid, "pid", cred.Pid)
			return nil
		}
		return conn
	}
}
