//go:build unix

package workspace

import (
	"os"
	"syscall"
)

func lockFile(f *os.File) error   { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }
func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// openNonblock makes an open of a FIFO (or device) a session put in its
// workspace return at once instead of waiting for the other end.
const openNonblock = syscall.O_NONBLOCK
