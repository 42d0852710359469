package cli

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/attach"
	"github.com/alice-trading/alice/config"
)

// recordListeners writes the bound endpoints into the data dir lock's
// owner file, so a second `alice`/`alice serve` on the same dir can say
// where the running one listens, and `alice`/`alice attach` find the
// socket the core serves its TUI on.
func recordListeners(lock *config.DataLock, a *app.App, relay *attach.Server, logger *slog.Logger) {
	if err := lock.SetListeners(coreListeners(a, relay)); err != nil {
		logger.Warn("Recording listeners in the lock file failed", "err", err)
	}
}

// printErrors prints joined errors one per line.
func printErrors(w io.Writer, err error) {
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintf(w, "alice: %s\n", line)
	}
}

// coreListeners are a running core's endpoints: its MCP ports, the attach
// socket and the SSH listener when enabled.
func coreListeners(a *app.App, relay *attach.Server) []config.LockListener {
	var ls []config.LockListener
	for _, l := range a.Listeners() {
		ls = append(ls, config.LockListener{Name: l.Name, URL: l.URL})
	}
	if relay != nil {
		ls = append(ls, config.LockListener{Name: attachListener, URL: "unix://" + relay.SocketPath()})
		if addr := relay.TCPAddr(); addr != "" {
			ls = append(ls, config.LockListener{Name: "ssh", URL: "ssh://" + addr})
		}
	}
	return ls
}
