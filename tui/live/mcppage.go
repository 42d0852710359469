package live

import (
	"github.com/alice-trading/alice/tui"
)

var _ tui.MCPCore = (*Core)(nil)

// MCPEndpoints lists the main and Ask endpoints and every workspace's
// /mcp/{wsId} URL.
func (c *Core) MCPEndpoints() tui.MCPEndpoints {
	var e tui.MCPEndpoints
	st := c.Status()
	e.Main, e.Ask = st.MainMCP, st.AskMCP
	if cfg, err := c.a.Opts.Store.MCP(); err == nil {
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
		e.Workspaces = append(e.Workspaces, tui.WorkspaceEndpoint{ID: w.ID, Tag: w.Tag, URL: c.a.MCP.WorkspaceURL(w.ID)})
	}
	return e
}

// MCPClients lists client sessions seen by the MCP listeners.
// The per-session registry (mcp.Server.Clients) is being added to mcp/;
// until it is merged no sessions are known, and the page says so.
func (c *Core) MCPClients() []tui.MCPClient { return nil }
