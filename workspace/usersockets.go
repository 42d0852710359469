package workspace

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// userSockets are where programs of the user wait for commands from
// anyone who can connect as the user, and run them outside any sandbox:
// tmux's servers (a session told the user's tmux to run `cat
// …/operator.key` in a new window, black-box), GNU screen's, and the
// runtime directory (the systemd user manager's and the session bus's
// sockets: `systemd-run --user`). A sandboxed session gets an empty
// directory of its own at each (sandbox.Policy.Private), so a tmux it
// starts works and reaches only itself; the socket of the tmux alice runs
// in, wherever it is, is masked. The ssh agent's socket
// (SSH_AUTH_SOCK) and gpg-agent's directory are kept: they sign, they
// run nothing, and git needs them. env is the session's environment.
//
// tmux's directory is made (mode 0700, as tmux makes it) when it is not
// there yet, so that it is covered too: otherwise a session's tmux would
// put its server where the user's next tmux looks first.
func userSockets(env []string) (private, mask, keep []string) {
	get := func(name string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], name+"="); ok {
				return v
			}
		}
		return ""
	}
	uid := strconv.Itoa(os.Getuid())
	tmpdir := get("TMUX_TMPDIR")
	if tmpdir == "" {
		tmpdir = "/tmp" // tmux's own default (not TMPDIR)
	}
	tmux := filepath.Join(tmpdir, "tmux-"+uid)
	_ = os.Mkdir(tmux, 0o700)
	private = append(private, tmux)
	runtime := get("XDG_RUNTIME_DIR")
	if runtime == "" {
		runtime = filepath.Join("/run/user", uid)
	}
	private = append(private, runtime)
	if u, err := user.Current(); err == nil {
		for _, d := range []string{"/run/screen", "/var/run/screen", "/tmp/screens"} {
			private = append(private, filepath.Join(d, "S-"+u.Username))
		}
		if u.HomeDir != "" {
			private = append(private, filepath.Join(u.HomeDir, ".screen"))
		}
	}
	home, _ := os.UserHomeDir()
	private = socketDirs(private, os.Getuid(), home)
	// The tmux server alice itself runs under may listen anywhere (-S):
	// its socket is masked (TMUX is alice's own; sessions never get it).
	if t := os.Getenv("TMUX"); t != "" {
		if sock, _, _ := strings.Cut(t, ","); sock != "" {
			mask = append(mask, sock)
		}
	}
	if s := get("SSH_AUTH_SOCK"); s != "" {
		keep = append(keep, s)
	}
	keep = append(keep, filepath.Join(runtime, "gnupg"))
	return private, mask, keep
}

// socketDirs keeps the paths that look like what they are meant to be:
// existing directories of uid's own that nobody else may enter (mode
// 0700, as tmux, screen and the runtime directory make them). A
// misconfigured variable (XDG_RUNTIME_DIR=$HOME, TMUX_TMPDIR=/) must not
// make a session's home or root an empty directory: "/", home and every
// directory above it are never taken.
func socketDirs(ps []string, uid int, home string) []string {
	var out []string
	for _, p := range ps {
		p = filepath.Clean(p)
		if p == "/" || !filepath.IsAbs(p) || home != "" && (p == home || strings.HasPrefix(home, p+"/")) {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != uid {
			continue
		}
		out = append(out, p)
	}
	return out
}
