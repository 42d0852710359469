package live

import (
	"github.com/alice-trading/alice/tui/mcppage"
)

var _ mcppage.MCPCore = (*Core)(nil)

// MCPEndpoints lists the main and Ask endpoints and every workspace's
// /mcp/{wsId} URL.
func (c *Core) MCPEndpoints() mcppage.MCPEndpoints {
	var e mcppage.MCPEndpoints
	st := c.Status()
	e.Main, e.Ask = st.MainMCP, st.AskMCP
	if cfg, err := c.settings.MCP(); err == nil {
		e.HasToken = cfg.Token != ""
	}
	if e.Main == "" {
		return e
	}
	ws, err := c.Workspaces()
	if err != nil {
		return e
	}
	for _, w := range ws {
		e.Workspaces = append(e.Workspaces, mcppage.WorkspaceEndpoint{ID: w.ID, Tag: w.Tag, URL: c.a.WorkspaceMCPURL(w.ID)})
	}
	return e
}

// MCPClients lists the client sessions open on the main and Ask
// listeners (name and version from initialize, last call, calls per tool).
func (c *Core) MCPClients() []mcppage.MCPClient {
	var out []mcppage.MCPClient
	for _, ci := range c.a.MCPClients() {
		ep := ci.Endpoint
		if ci.Listener == "ask" {
			ep = "ask " + ep
		}
		out = append(out, mcppage.MCPClient{SessionID: ci.SessionID, Endpoint: ep, Name: ci.Name, Version: ci.Version,
			Connected: ci.Connected, LastCall: ci.LastCall, Calls: ci.Calls})
	}
	return out
}
