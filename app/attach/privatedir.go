package attach

import (
	"fmt"
	"os"
	"syscall"
)

// privateDir makes dir an owner-only directory for the socket and the host
// key: created 0700 when missing, tightened to 0700 when it exists with
// wider permissions (an older alice, a restore, a person's chmod), and
// refused when it is not a real directory or not owned by uid — whoever
// owns it could swap the socket or read the host key.
func privateDir(dir string, uid int) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("attach: %s is not a directory (a symlink?); remove it", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != uid {
		return fmt.Errorf("attach: %s is not owned by you (owner uid %d, you are %d); remove it or fix its owner", dir, st.Uid, uid)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("attach: tightening %s to 0700: %w", dir, err)
		}
	}
	return nil
}
