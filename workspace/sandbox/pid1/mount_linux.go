package pid1

import (
	"errors"
	"os"
	"syscall"
)

// oPath is O_PATH, the same on every Linux port Go has (syscall does not
// name it): an fd that only points at a file.
const oPath = 0x200000

// setUp makes the init's mount namespace hide s.Hide (keeping s.Keep) and
// shows a /proc of the new pid namespace only.
func setUp(s Spec) error {
	// Nothing done here propagates back to the host's mounts.
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return wrap("make / private", err)
	}
	if err := pinAncestors(append(append([]string(nil), s.Hide...), s.ReadOnly...)); err != nil {
		return err
	}
	// Outer directories first: one inside a directory hidden already is
	// gone (unless kept, then it is hidden in its turn).
	for _, h := range byLength(s.Hide) {
		if err := cover(h, s.Keep, true); err != nil {
			return err
		}
	}
	for _, p := range byLength(s.Private) {
		if err := cover(p, s.Keep, false); err != nil {
			return err
		}
	}
	for _, p := range s.Mask {
		if err := mask(p); err != nil {
			return err
		}
	}
	for _, p := range s.ReadOnly {
		if err := readOnly(p); err != nil {
			return err
		}
	}
	if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return wrap("mount a new /proc", err)
	}
	return nil
}

// pinAncestors makes every directory on the way to each path (its real
// path; "/" aside) a mount point of its own, bound onto itself, before
// anything is hidden. A mount point cannot be renamed (EBUSY): without
// the pins a session moved an ancestor away (mv ~/.config/systemd/user
// ~/x) and planted a fresh alice.service, alice binary or register of
// homes at the old path, which everything outside then used.
func pinAncestors(paths []string) error {
	var dirs []string
	for _, p := range paths {
		real, err := realPath(p)
		if err != nil {
			continue // absent: nothing there to protect
		}
		for d := parent(real); d != "/"; d = parent(d) {
			if !contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	// Outermost first, so each pin carries the pins and mounts below it.
	for _, d := range byLength(dirs) {
		if err := syscall.Mount(d, d, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
			return wrap("pin "+d, err)
		}
	}
	return nil
}

// mask binds /dev/null over the file p (a socket: connecting to it is
// refused), read-only. A path that is absent or a directory is left alone.
func mask(p string) error {
	real, err := realPath(p)
	if err != nil {
		return nil // absent: nothing to reach
	}
	if fi, err := os.Stat(real); err != nil || fi.IsDir() {
		return nil
	}
	if err := syscall.Mount("/dev/null", real, "", syscall.MS_BIND, ""); err != nil {
		return wrap("mask "+p, err)
	}
	if err := syscall.Mount("", real, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY|syscall.MS_NOSUID|syscall.MS_NODEV, ""); err != nil {
		return wrap("mask "+p, err)
	}
	return nil
}

// readOnly binds p (a file or a directory) read-only onto itself: the
// session cannot change it, nor rename another file over it (a mount
// point), and the program's own user namespace cannot undo it.
func readOnly(p string) error {
	real, err := realPath(p)
	if errors.Is(err, syscall.ENOENT) {
		return nil
	}
	if err != nil {
		return wrap("read-only "+p, err)
	}
	if err := syscall.Mount(real, real, "", syscall.MS_BIND, ""); err != nil {
		return wrap("read-only "+p+": bind", err)
	}
	if err := syscall.Mount("", real, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY|syscall.MS_NOSUID|syscall.MS_NODEV, ""); err != nil {
		return wrap("read-only "+p, err)
	}
	return nil
}

// cover covers dir with an empty tmpfs and binds each kept directory or
// file beneath it back in. A hidden dir's tmpfs is then made read-only;
// a private one stays writable, for the program alone (mode 0700: tmux
// wants its socket directory so).
func cover(dir string, keep []string, hidden bool) error {
	real, err := realPath(dir)
	if errors.Is(err, syscall.ENOENT) {
		return nil
	}
	if err != nil {
		return wrap("hide "+dir, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return wrap("hide "+dir, err)
	}
	if !fi.IsDir() {
		return errors.New("hide " + dir + ": not a directory")
	}
	// Open every kept directory before the tmpfs covers it: the fds are
	// the way back to it.
	type kept struct {
		path string // real, beneath dir's real path
		fd   int
		dir  bool
	}
	var ks []kept
	defer func() {
		for _, k := range ks {
			_ = syscall.Close(k.fd)
		}
	}()
	for _, k := range keep {
		rk, err := realPath(k)
		if err != nil || !within(real, rk) {
			continue
		}
		fd, err := syscall.Open(rk, oPath|syscall.O_CLOEXEC, 0)
		if err != nil {
			return wrap("keep "+k, err)
		}
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			_ = syscall.Close(fd)
			return wrap("keep "+k, err)
		}
		ks = append(ks, kept{path: rk, fd: fd, dir: st.Mode&syscall.S_IFMT == syscall.S_IFDIR})
	}
	const flags = syscall.MS_NOSUID | syscall.MS_NODEV
	opts := "size=1m,mode=0755"
	if !hidden {
		opts = "size=16m,mode=0700"
	}
	if err := syscall.Mount("tmpfs", real, "tmpfs", flags, opts); err != nil {
		return wrap("hide "+dir+": mount tmpfs", err)
	}
	for _, k := range ks {
		if err := mountPoint(k.path, k.dir); err != nil {
			return wrap("keep "+k.path, err)
		}
		if err := syscall.Mount("/proc/self/fd/"+itoa(k.fd), k.path, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
			return wrap("keep "+k.path+": bind", err)
		}
	}
	if !hidden {
		return nil
	}
	if err := syscall.Mount("", real, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY|flags, ""); err != nil {
		return wrap("hide "+dir+": make read-only", err)
	}
	return nil
}

// mountPoint makes at (in a fresh tmpfs) a place to bind onto: a
// directory for a directory, an empty file for anything else.
func mountPoint(at string, dir bool) error {
	if dir {
		return os.MkdirAll(at, 0o755)
	}
	if err := os.MkdirAll(parent(at), 0o755); err != nil {
		return err
	}
	fd, err := syscall.Open(at, syscall.O_CREAT|syscall.O_EXCL|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	return syscall.Close(fd)
}

// realPath is p with every symlink resolved, as the kernel resolves it:
// p opened as a path-only fd, read back through /proc/self/fd.
func realPath(p string) (string, error) {
	fd, err := syscall.Open(p, oPath|syscall.O_CLOEXEC, 0)
	if err != nil {
		return "", err
	}
	defer func() { _ = syscall.Close(fd) }()
	buf := make([]byte, 4096)
	n, err := syscall.Readlink("/proc/self/fd/"+itoa(fd), buf)
	if err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}

// pathError keeps the cause for errors.Is while the message says where.
type pathError struct {
	what string
	err  error
}

func (e *pathError) Error() string { return e.what + ": " + e.err.Error() }
func (e *pathError) Unwrap() error { return e.err }

func wrap(what string, err error) error { return &pathError{what: what, err: err} }
