//go:build unix

package config

import (
	"fmt"
	"os"
	"syscall"
)

// PrivateDir makes dir an owner-only directory (the attach socket and host
// key, the register of homes): created 0700 when missing, tightened to
// 0700 when it exists with wider permissions (an older alice, a restore,
// a person's chmod), and refused when it is not a real directory or not
// owned by uid — whoever owns it could swap the socket, read the host key
// or edit what sessions hide.
func PrivateDir(dir string, uid int) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory (a symlink?); remove it", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != uid {
		return fmt.Errorf("%s is not owned by you (owner uid %d, you are %d); remove it or fix its owner", dir, st.Uid, uid)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("tightening %s to 0700: %w", dir, err)
		}
	}
	return nil
}
