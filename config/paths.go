package config

import (
	"fmt"
	"os"
	"path/filepath"

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

// ResolvePaths picks the directories: an explicit home (from --home or
// ALICE_HOME) wins and puts everything under home/config and home/data;
// otherwise the XDG base directories are used.
func ResolvePaths(home string) (Paths, error) {
	if home == "" {
		home = os.Getenv("ALICE_HOME")
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
	xdg.Reload()
	return Paths{
		Config: filepath.Join(xdg.ConfigHome, "alice"),
		Data:   filepath.Join(xdg.DataHome, "alice"),
		Logs:   filepath.Join(xdg.StateHome, "alice", "logs"),
	}, nil
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
