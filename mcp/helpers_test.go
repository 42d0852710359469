package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/alice-trading/alice/core"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/require"
)

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// startServer starts s on a free loopback port and stops it with the test.
func startServer(t testing.TB, s *Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	require.NoError(t, s.Start(ctx))
	t.Cleanup(func() {
		cancel()
		require.NoError(t, s.Close())
	})
}

// connect opens a real mcp-go Streamable HTTP client and initializes it.
func connect(t testing.TB, url string, headers map[string]string) *client.Client {
	t.Helper()
	c, err := tryConnect(url, headers)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func tryConnect(url string, headers map[string]string) (*client.Client, error) {
	var opts []transport.StreamableHTTPCOption
	if headers != nil {
		opts = append(opts, transport.WithHTTPHeaders(headers))
	}
	c, err := client.NewStreamableHttpClient(url, opts...)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	req := mcpgo.InitializeRequest{}
	req.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcpgo.Implementation{Name: "alice-test", Version: "0"}
	if _, err := c.Initialize(ctx, req); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

func toolNames(t testing.TB, c *client.Client) []string {
	t.Helper()
	res, err := c.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	require.NoError(t, err)
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func callTool(t testing.TB, c *client.Client, name string, args any) *mcpgo.CallToolResult {
	t.Helper()
	req := mcpgo.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(context.Background(), req)
	require.NoError(t, err)
	return res
}

// resultText joins the text blocks of a result.
func resultText(res *mcpgo.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := mcpgo.AsTextContent(c); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// sampleTools registers a few tools exercising results, errors and numbers.
func sampleTools(tc *core.ToolCenter) {
	tc.Register(
		core.Tool{
			Name: "echo", Group: "test", Description: "Echo a message.",
			InputSchema: core.Schema(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var a struct {
					Message string `json:"message"`
				}
				if err := core.DecodeArgs(args, &a); err != nil {
					return nil, err
				}
				return map[string]string{"echo": a.Message}, nil
			},
		},
		core.Tool{
			Name: "add", Group: "test", Description: "Add two numbers.",
			InputSchema: core.Schema(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"integer"}},"required":["a","b"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var a struct {
					A float64 `json:"a"`
					B int     `json:"b"`
				}
				if err := core.DecodeArgs(args, &a); err != nil {
					return nil, err
				}
				return a.A + float64(a.B), nil
			},
		},
		core.Tool{
			Name: "chart", Group: "test", Description: "Rich content.",
			InputSchema: core.Schema(`{"type":"object","properties":{}}`),
			Handler: func(context.Context, json.RawMessage) (any, error) {
				return &core.ToolResult{Content: []core.ContentBlock{
					{Type: "text", Text: "a chart"},
					{Type: "image", Data: "iVBORw0KGgo=", MIMEType: "image/png"},
				}}, nil
			},
		},
		core.Tool{
			Name: "boom", Group: "test", Description: "Always fails.",
			InputSchema: core.Schema(`{"type":"object","properties":{}}`),
			Handler: func(context.Context, json.RawMessage) (any, error) {
				return nil, errors.New("broker offline")
			},
		},
	)
}

// disabledList is a mutable tools.json stand-in.
type disabledList struct {
	mu    sync.Mutex
	names []string
}

func (d *disabledList) set(n ...string) { d.mu.Lock(); d.names = n; d.mu.Unlock() }
func (d *disabledList) get() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.names...)
}

// fakeAsker echoes and records turns in memory, like a tiny session store.
type fakeAsker struct {
	mu       sync.Mutex
	sessions map[string][]Message
	touched  []string
	fail     error
}

func newFakeAsker() *fakeAsker { return &fakeAsker{sessions: map[string][]Message{}} }

func (f *fakeAsker) AskWithSession(_ context.Context, message, sessionID string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return "", f.fail
	}
	reply := fmt.Sprintf("turn %d: %s", len(f.sessions[sessionID])/2+1, message)
	f.sessions[sessionID] = append(f.sessions[sessionID], Message{"user", message}, Message{"assistant", reply})
	return reply, nil
}

func (f *fakeAsker) ListSessions(prefix string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for id := range f.sessions {
		if strings.HasPrefix(id, prefix) {
			out = append(out, id)
		}
	}
	return out, nil
}

func (f *fakeAsker) History(sessionID string, limit int) ([]Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.sessions[sessionID]
	if len(m) > limit {
		m = m[len(m)-limit:]
	}
	return append([]Message(nil), m...), nil
}

func (f *fakeAsker) Touch(channel, to string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.touched = append(f.touched, channel+":"+to)
}

func (f *fakeAsker) setFail(err error) { f.mu.Lock(); f.fail = err; f.mu.Unlock() }

func (f *fakeAsker) snapshot() (sessions map[string][]Message, touched []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sessions = map[string][]Message{}
	for k, v := range f.sessions {
		sessions[k] = append([]Message(nil), v...)
	}
	return sessions, append([]string(nil), f.touched...)
}
