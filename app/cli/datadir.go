package cli

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/config"
)

// recordListeners writes the bound endpoints into the data dir lock's
// owner file, so a second `alice`/`alice serve` on the same dir can say
// where the running one listens. (The TUI does not attach to a running
// core: it refuses with that message; see README.)
func recordListeners(lock *config.DataLock, a *app.App, logger *slog.Logger) {
	var ls []config.LockListener
	for _, l := range a.Listeners() {
		ls = append(ls, config.LockListener{Name: l.Name, URL: l.URL})
	}
	if err := lock.SetListeners(ls); err != nil {
		logger.Warn("Recording listeners in the lock file failed", "err", err)
	}
}

// printErrors prints joined errors one per line.
func printErrors(w io.Writer, err error) {
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintf(w, "alice: %s\n", line)
	}
}
