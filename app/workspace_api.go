package app

import "github.com/alice-trading/alice/workspace/wsapi"

// MainListener names the main MCP listener in Listeners() and in the data
// dir lock's owner file, where `alice workspace` finds the running API.
const MainListener = "MCP"

// mountWorkspaceAPI serves /api/workspaces on the main listener, behind
// the MCP port's protections, for `alice workspace …` and scripts.
func (a *App) mountWorkspaceAPI() {
	h := wsapi.Handler(wsapi.Service{M: a.workspaces, MCPURL: a.mcp.URL})
	for _, route := range wsapi.Routes {
		a.mcp.HandleProtected(route, h)
	}
}
