package app

import (
	"context"
	"os"

	"github.com/alice-trading/alice/workspace/wsapi"
)

// mountWorkspaceAPI serves /api/workspaces on the main listener, behind
// the MCP port's protections, for `alice workspace …` and scripts.
func (a *App) mountWorkspaceAPI() {
	h := wsapi.Handler(wsapi.Service{M: a.Workspaces, MCPURL: a.MCP.URL})
	for _, route := range wsapi.Routes {
		a.MCP.HandleProtected(route, h)
	}
}

// recordInstance writes the listener URL under the data dir so the CLI can
// find this instance (the port may be random); it is removed on shutdown.
func (a *App) recordInstance() {
	path := a.Opts.Paths.DataPath(wsapi.InstanceFile)
	pid := os.Getpid()
	if err := wsapi.WriteInstance(path, wsapi.Instance{PID: pid, URL: a.MCP.URL()}); err != nil {
		a.Log.Warn("record instance for the CLI", "path", path, "err", err)
		return
	}
	a.onClose("instance record", func(context.Context) error { wsapi.RemoveInstance(path, pid); return nil })
}
