package workspace

import (
	"os"

	"golang.org/x/sys/unix"
)

// utf8Input sets IUTF8 on the terminal tty (best effort).
func utf8Input(tty *os.File) {
	fd := int(tty.Fd())
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return
	}
	t.Iflag |= unix.IUTF8
	_ = unix.IoctlSetTermios(fd, unix.TCSETS, t)
}
