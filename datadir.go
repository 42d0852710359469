package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/app"
)

// lockDataDir makes this process the one owner of the data dir before
// anything in it is opened. A second `alice` or `alice serve` on the same
// dir fails with an error naming the owner's pid and ports; the TUI does
// not attach to a running core (see README).
func lockDataDir(paths config.Paths, cmd string) (*config.DataLock, error) {
	name := "alice"
	if cmd != "tui" {
		name += " " + cmd
	}
	return config.LockDataDir(paths.Data, name)
}

// recordListeners writes the bound endpoints into the lock's owner file,
// so a second instance can say where the running one listens.
func recordListeners(lock *config.DataLock, a *app.App, logger *slog.Logger) {
	var ls []config.LockListener
	for _, l := range a.Listeners() {
		ls = append(ls, config.LockListener{Name: l.Name, URL: l.URL})
	}
	if err := lock.SetListeners(ls); err != nil {
		logger.Warn("Recording listeners in the lock file failed", "err", err)
	}
}

// runCheck is `alice check`: exactly the validation start-up runs
// (app.Validate), on a read-only store. It takes no lock and writes
// nothing (missing files are checked as their defaults), so it can run
// beside the alice that owns the data dir.
func runCheck(paths config.Paths, stdout, stderr io.Writer) int {
	store := config.NewReadOnlyStore(paths.Config)
	if err := app.Validate(store, os.Getenv); err != nil {
		printErrors(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "config OK: %s\ndata: %s\n", paths.Config, paths.Data)
	return 0
}

// printErrors prints joined errors one per line.
func printErrors(w io.Writer, err error) {
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintf(w, "alice: %s\n", line)
	}
}
