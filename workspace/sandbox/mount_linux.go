package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"golang.org/x/sys/unix"
)

// setUp makes the init's mount namespace hide s.Hide (keeping s.Keep) and
// shows a /proc of the new pid namespace only.
func setUp(s spec) error {
	// Nothing done here propagates back to the host's mounts.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make / private: %w", err)
	}
	if err := pinAncestors(append(append([]string(nil), s.Hide...), s.ReadOnly...)); err != nil {
		return err
	}
	hides := append([]string(nil), s.Hide...)
	// Outer directories first: one inside a directory hidden already is
	// gone (unless kept, then it is hidden in its turn).
	sort.Slice(hides, func(i, j int) bool { return len(hides[i]) < len(hides[j]) })
	for _, h := range hides {
		if err := hide(h, s.Keep); err != nil {
			return err
		}
	}
	for _, p := range s.ReadOnly {
		if err := readOnly(p); err != nil {
			return err
		}
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount a new /proc: %w", err)
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
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue // absent: nothing there to protect
		}
		for d := filepath.Dir(real); d != "/" && d != "."; d = filepath.Dir(d) {
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	// Outermost first, so each pin carries the pins and mounts below it.
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) < len(dirs[j]) })
	for _, d := range dirs {
		if err := unix.Mount(d, d, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("pin %s: %w", d, err)
		}
	}
	return nil
}

// readOnly binds p (a file or a directory) read-only onto itself: the
// session cannot change it, nor rename another file over it (a mount
// point), and the program's own user namespace cannot undo it.
func readOnly(p string) error {
	real, err := filepath.EvalSymlinks(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read-only %s: %w", p, err)
	}
	if err := unix.Mount(real, real, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("read-only %s: bind: %w", p, err)
	}
	if err := unix.Mount("", real, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return fmt.Errorf("read-only %s: %w", p, err)
	}
	return nil
}

// hide covers dir with an empty tmpfs, binds each kept directory beneath
// it back in, and makes the tmpfs read-only.
func hide(dir string, keep []string) error {
	real, err := filepath.EvalSymlinks(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("hide %s: %w", dir, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return fmt.Errorf("hide %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("hide %s: not a directory", dir)
	}
	// Open every kept directory before the tmpfs covers it: the fds are
	// the way back to it.
	type kept struct {
		rel string
		f   *os.File
	}
	var ks []kept
	defer func() {
		for _, k := range ks {
			_ = k.f.Close()
		}
	}()
	for _, k := range keep {
		rk, err := filepath.EvalSymlinks(k)
		if err != nil || !within(real, rk) {
			continue
		}
		rel, _ := filepath.Rel(real, rk)
		f, err := os.OpenFile(rk, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("keep %s: %w", k, err)
		}
		ks = append(ks, kept{rel: rel, f: f})
	}
	const flags = unix.MS_NOSUID | unix.MS_NODEV
	if err := unix.Mount("tmpfs", real, "tmpfs", flags, "size=1m,mode=0755"); err != nil {
		return fmt.Errorf("hide %s: mount tmpfs: %w", dir, err)
	}
	for _, k := range ks {
		at := filepath.Join(real, k.rel)
		if err := os.MkdirAll(at, 0o755); err != nil {
			return fmt.Errorf("keep %s: %w", at, err)
		}
		src := fmt.Sprintf("/proc/self/fd/%d", k.f.Fd())
		if err := unix.Mount(src, at, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("keep %s: bind: %w", at, err)
		}
	}
	if err := unix.Mount("", real, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|flags, ""); err != nil {
		return fmt.Errorf("hide %s: make read-only: %w", dir, err)
	}
	return nil
}
