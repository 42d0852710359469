package app

import "github.com/alice-trading/alice/mcp"

// MCPClients lists the MCP client sessions open on the main listener and
// the Ask connector (when enabled), for the TUI's MCP page.
func (a *App) MCPClients() []mcp.ClientInfo {
	var out []mcp.ClientInfo
	for _, s := range []*mcp.Server{a.mcp, a.ask} {
		if s != nil {
			out = append(out, s.Clients()...)
		}
	}
	return out
}
