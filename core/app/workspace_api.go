package app

import "github.com/alice-trading/alice/workspace/wsapi"

// mountWorkspaceAPI serves /api/workspaces on the main listener, behind
// the MCP port's protections, for `alice workspace …` and scripts.
func (a *App) mountWorkspaceAPI() {
	h := wsapi.Handler(wsapi.Service{M: a.Workspaces, MCPURL: a.MCP.URL})
	for _, route := range wsapi.Routes {
		a.MCP.HandleProtected(route, h)
	}
}
