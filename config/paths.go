package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/adrg/xdg"
)

// Paths is where alice keeps everything on disk. It is resolved once at
// start-up and passed down explicitly so that tests (and several alice
// instances on one machine) never share state through globals.
type Paths struct {
	// Config holds the JSON config files (ai-provider.json, mcp.json, …).
	Config string
	// Data holds everything alice produces: sessions, inbox, trading
	// history, event log, workspaces.
	Data string
	// Logs holds alice.log. It lives outside Config so users can wipe logs
	// without touching configuration.
	Logs string
}

// Private are the directories only alice itself reads: its config, data
// and logs, and the attach sockets' fallback directory. Workspace sessions
// and one-shot runs run where they are hidden (workspace/sandbox).
func (p Paths) Private() []string {
	return []string{p.Config, p.Data, p.Logs, SocketFallbackDir()}
}

// SocketFallbackDir holds a data dir's attach socket when its path in the
// data dir would be too long for a unix socket: <tmp>/alice-<uid>.
func SocketFallbackDir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("alice-%d", os.Getuid()))
}

// ErrNoHome is returned when there is nowhere sensible to keep files:
// no --home/ALICE_HOME, no usable HOME and no absolute XDG directories.
// Falling back to "/" (what the XDG library does with HOME unset) would
// scatter /.config and /.local over the filesystem root.
var ErrNoHome = errors.New("nowhere to keep config and data: HOME is not set to a directory (and XDG_CONFIG_HOME, XDG_DATA_HOME and XDG_STATE_HOME are not all set); pass --home DIR or set ALICE_HOME")

// ResolvePaths picks the directories: an explicit home (from --home or
// ALICE_HOME) wins and puts everything under home/config and home/data;
// otherwise the XDG base directories are used, which needs a usable HOME
// unless all three XDG variables are set to absolute paths.
func ResolvePaths(home string) (Paths, error) {
	return resolvePaths(home, os.Getenv)
}

func resolvePaths(home string, getenv func(string) string) (Paths, error) {
	if home == "" {
		home = getenv("ALICE_HOME")
	}
	if home != "" {
		abs, err := filepath.Abs(home)
		if err != nil {
			return Paths{}, fmt.Errorf("resolve home %q: %w", home, err)
		}
		return Paths{
			Config: filepath.Join(abs, "config"),
			Data:   filepath.Join(abs, "data"),
			Logs:   filepath.Join(abs, "data", "logs"),
		}, nil
	}
	if !usableHome(getenv("HOME")) {
		for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"} {
			if !filepath.IsAbs(getenv(v)) {
				return Paths{}, ErrNoHome
			}
		}
	}
	p := xdgPaths()
	for _, d := range []string{p.Config, p.Data, p.Logs} {
		if !filepath.IsAbs(d) {
			return Paths{}, ErrNoHome
		}
	}
	return p, nil
}

// xdgMu serialises the XDG library's globals: Reload rewrites them from
// the environment, and cores (tests start many at once) resolve paths
// concurrently. The one package-level variable here guards the library's.
var xdgMu sync.Mutex

// xdgPaths are alice's directories under the XDG base directories the
// environment names now.
func xdgPaths() Paths {
	xdgMu.Lock()
	defer xdgMu.Unlock()
	xdg.Reload()
	return Paths{
		Config: filepath.Join(xdg.ConfigHome, "alice"),
		Data:   filepath.Join(xdg.DataHome, "alice"),
		Logs:   filepath.Join(xdg.StateHome, "alice", "logs"),
	}
}

// usableHome is an absolute directory other than the filesystem root.
func usableHome(h string) bool {
	if !filepath.IsAbs(h) || filepath.Clean(h) == "/" {
		return false
	}
	st, err := os.Stat(h)
	return err == nil && st.IsDir()
}

// Ensure creates the directories with owner-only permissions: config files
// may hold API keys.
func (p Paths) Ensure() error {
	for _, d := range []string{p.Config, p.Data, p.Logs} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("create %s: %w", d, err)
		}
	}
	return nil
}

// DataPath joins elements under the data directory.
func (p Paths) DataPath(elem ...string) string {
	return filepath.Join(append([]string{p.Data}, elem...)...)
}

// SystemdUserUnit is where `alice service install` writes alice's systemd
// user unit: $XDG_CONFIG_HOME/systemd/user/alice.service, with
// ~/.config when XDG_CONFIG_HOME is unset or relative (which the XDG spec
// says to ignore).
func SystemdUserUnit(userHome, xdgConfig string) string {
	return filepath.Join(userConfigHome(userHome, xdgConfig), "systemd", "user", "alice.service")
}

// userConfigHome is $XDG_CONFIG_HOME, or ~/.config when it is unset or
// relative.
func userConfigHome(userHome, xdgConfig string) string {
	if filepath.IsAbs(xdgConfig) {
		return xdgConfig
	}
	return filepath.Join(userHome, ".config")
}

// Protected are the files and directories a workspace session may see but
// must not change because what is there runs later outside any sandbox:
// alice's own executable, and the user's systemd configuration (its unit,
// but also the drop-ins, user.control overrides and environment.d files
// that would change what the unit runs).
func Protected() []string {
	var out []string
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		out = append(out, exe)
	}
	if home, err := os.UserHomeDir(); err == nil {
		configHome := userConfigHome(home, os.Getenv("XDG_CONFIG_HOME"))
		out = append(out, filepath.Join(configHome, "systemd"), filepath.Join(configHome, "environment.d"))
	}
	return out
}
