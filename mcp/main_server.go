package mcp

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/alice-trading/alice/core"

	"github.com/mark3labs/mcp-go/server"
)

// ToolSource is the global tool catalogue; *core.ToolCenter satisfies it.
// Tools is called on every request, so disabling a tool in tools.json
// takes effect without a restart.
type ToolSource interface {
	Tools(extraDisabled ...string) []core.Tool
}

// WorkspaceTools builds the workspace-scoped tools (inbox_push, …) for one
// workspace; *core.WorkspaceToolCenter satisfies it.
type WorkspaceTools interface {
	ToolsFor(ws core.WorkspaceIdentity) []core.Tool
}

// WorkspaceLookup resolves the {wsId} of /mcp/{wsId}; false means unknown.
type WorkspaceLookup func(id string) (core.WorkspaceIdentity, bool)

// MainOptions wires the main tool server.
type MainOptions struct {
	Listen Listen
	Tools  ToolSource
	// Workspaces and LookupWorkspace serve /mcp/{wsId}; when either is nil
	// every workspace id answers 404.
	Workspaces      WorkspaceTools
	LookupWorkspace WorkspaceLookup
	// DisabledForMCP are extra tool names hidden from MCP clients only.
	DisabledForMCP []string
	Logger         *slog.Logger
	Version        string
}

// Server names reported in the MCP initialize handshake.
const (
	MainServerName      = "alice"
	WorkspaceServerName = "alice-workspace"
	AskServerName       = "alice-ask"
)

type workspaceKey struct{}

// WithWorkspace stores the URL-derived workspace identity in ctx.
func WithWorkspace(ctx context.Context, ws core.WorkspaceIdentity) context.Context {
	return context.WithValue(ctx, workspaceKey{}, ws)
}

// WorkspaceFrom returns the identity of the /mcp/{wsId} request being
// served, so a handler can trust it never came from the model.
func WorkspaceFrom(ctx context.Context) (core.WorkspaceIdentity, bool) {
	ws, ok := ctx.Value(workspaceKey{}).(core.WorkspaceIdentity)
	return ws, ok
}

// NewMain builds the main listener: /mcp and /mcp/{wsId}. Mount extra
// routes with Handle, then Start.
func NewMain(o MainOptions) *Server {
	s := newServer("main", o.Listen, o.Logger)
	version := o.Version
	if version == "" {
		version = "dev"
	}
	mainCat := newCatalog(MainServerName, version, s.log, s.sessions)
	wsCat := newCatalog(WorkspaceServerName, version, s.log, s.sessions)
	s.mountMCP("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var tools []core.Tool
		if o.Tools != nil {
			tools = o.Tools.Tools(append(without(r), o.DisabledForMCP...)...)
		}
		mainCat.serve(w, s.withCaller(r, "mcp"), tools)
	}))
	s.mountMCP("/mcp/{wsId}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("wsId")
		if o.Workspaces == nil || o.LookupWorkspace == nil {
			httpError(w, http.StatusNotFound, "unknown workspace "+quote(id))
			return
		}
		ws, ok := o.LookupWorkspace(id)
		if !ok {
			httpError(w, http.StatusNotFound, "unknown workspace "+quote(id))
			return
		}
		if ws.ID == "" {
			ws.ID = id
		}
		r = r.WithContext(WithWorkspace(r.Context(), ws))
		wsCat.serve(w, s.withCaller(r, "workspace/"+ws.ID), o.Workspaces.ToolsFor(ws))
	}))
	return s
}

// withCaller tells tools who is calling: the channel (the endpoint), the
// MCP session and the client's name from its initialize handshake.
func (s *Server) withCaller(r *http.Request, channel string) *http.Request {
	c := core.Caller{Channel: channel}
	ref := clientFrom(r.Context())
	c.Agent = ref.name
	if ref.session != "" {
		c.Session = "mcp:" + ref.session
	}
	return r.WithContext(core.WithCaller(r.Context(), c))
}

// WithoutParam is the query parameter that hides tools from one client
// (a channel's disabled tools, for the claude and codex CLI backends): it
// only ever takes tools away, so it needs no trust.
const WithoutParam = "without"

// without reads the tools a request asks to hide.
func without(r *http.Request) []string {
	var out []string
	for _, v := range r.URL.Query()[WithoutParam] {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				out = append(out, name)
			}
		}
	}
	return out
}

// quote shows a caller-supplied id in an error, bounded in length.
func quote(s string) string {
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return strconv.Quote(s)
}

// newMCPServer applies the options every alice MCP server shares. Empty
// resource and prompt capabilities are declared so generic clients that
// probe resources/list or prompts/list get an empty list, not an error.
func newMCPServer(name, version string, extra ...server.ServerOption) *server.MCPServer {
	opts := append([]server.ServerOption{
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithPromptCapabilities(false),
		server.WithLogging(),
		server.WithRecovery(),
	}, extra...)
	return server.NewMCPServer(name, version, opts...)
}

// newTransport wraps an MCP server in the Streamable HTTP transport. Our
// own guard already checked Host/Origin (with the configured allow list), so
// the transport's built-in loopback check is turned off to avoid rejecting
// allowed origins twice.
func newTransport(ms *server.MCPServer, log *slog.Logger, ids server.SessionIdManagerResolver) *server.StreamableHTTPServer {
	return server.NewStreamableHTTPServer(ms,
		server.WithSessionIdManagerResolver(ids),
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(log))
}
