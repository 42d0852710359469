package mcp

import (
	"bytes"
	"context"
	"hash/maphash"
	"log/slog"
	"net/http"
	"sync"

	"github.com/alice-trading/alice/core"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// maxCatalogs bounds the cache; the visible tool set rarely has more than
// a couple of shapes (main catalogue, workspace tools) at a time.
const maxCatalogs = 8

// catalog serves MCP for a tool list that is recomputed on every request
// (tools.json is read on each call, workspace tools are closures over the
// URL's identity) without rebuilding an MCP server each time: mcp-go
// validates every schema in AddTools, which cost ~10 µs per tool per
// request. Servers are cached by the tool *definitions* (name, description,
// schema); the handlers dispatch to the request's own core.Tool values,
// carried in the context, so a replaced handler or a per-workspace closure
// is always the one that runs. A changed definition or a disabled tool
// yields a different key, hence a server without that tool.
type catalog struct {
	name, version string
	log           *slog.Logger
	seed          maphash.Seed
	ids           server.SessionIdManagerResolver

	mu      sync.Mutex
	entries map[uint64]*catalogEntry
	order   []uint64
}

type catalogEntry struct {
	defs    []core.Tool // definitions only; handlers are never called
	handler http.Handler
}

func newCatalog(name, version string, log *slog.Logger, ids server.SessionIdManagerResolver) *catalog {
	return &catalog{name: name, version: version, log: log, ids: ids, seed: maphash.MakeSeed(), entries: map[uint64]*catalogEntry{}}
}

type requestToolsKey struct{}

// requestTool finds the tool visible to this request by name.
func requestTool(ctx context.Context, name string) (core.Tool, bool) {
	tools, _ := ctx.Value(requestToolsKey{}).([]core.Tool)
	for _, t := range tools {
		if t.Name == name {
			return t, true
		}
	}
	return core.Tool{}, false
}

// serve answers one HTTP request for exactly the given tools.
func (c *catalog) serve(w http.ResponseWriter, r *http.Request, tools []core.Tool) {
	if b, ok := r.Body.(*bodyReader); ok {
		if id, key, problem, bad := longArgument(b.b, tools); bad {
			c.log.Warn("mcp: refused an over-long argument", "key", key, "problem", problem)
			refuseArgument(w, id, "tools/call", key, problem)
			return
		}
	}
	h := c.handlerFor(tools)
	h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestToolsKey{}, tools)))
}

func (c *catalog) handlerFor(tools []core.Tool) http.Handler {
	key := c.fingerprint(tools)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok && sameDefs(e.defs, tools) {
		return e.handler
	}
	ms := newMCPServer(c.name, c.version)
	defs := make([]core.Tool, len(tools))
	if len(tools) > 0 {
		st := make([]server.ServerTool, len(tools))
		for i, t := range tools {
			defs[i] = core.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
			st[i] = server.ServerTool{Tool: mcpgo.NewToolWithRawSchema(t.Name, t.Description, t.InputSchema), Handler: dispatch(t.Name)}
		}
		ms.AddTools(st...)
	}
	e := &catalogEntry{defs: defs, handler: newTransport(ms, c.log, c.ids)}
	if _, exists := c.entries[key]; !exists {
		c.order = append(c.order, key)
	}
	c.entries[key] = e
	for len(c.order) > maxCatalogs {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	return e.handler
}

// dispatch calls the request's own version of the named tool.
func dispatch(name string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		t, ok := requestTool(ctx, name)
		if !ok {
			return mcpgo.NewToolResultError("Error: tool " + name + " is not available"), nil
		}
		return callCoreTool(ctx, t, req), nil
	}
}

func (c *catalog) fingerprint(tools []core.Tool) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	for _, t := range tools {
		_, _ = h.WriteString(t.Name)
		_ = h.WriteByte(0)
		_, _ = h.WriteString(t.Description)
		_ = h.WriteByte(0)
		_, _ = h.Write(t.InputSchema)
		_ = h.WriteByte(0)
	}
	return h.Sum64()
}

func sameDefs(defs, tools []core.Tool) bool {
	if len(defs) != len(tools) {
		return false
	}
	for i, d := range defs {
		t := tools[i]
		if d.Name != t.Name || d.Description != t.Description || !bytes.Equal(d.InputSchema, t.InputSchema) {
			return false
		}
	}
	return true
}
