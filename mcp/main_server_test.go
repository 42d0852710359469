package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/alice-trading/alice/core"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type mainFixture struct {
	srv      *Server
	disabled *disabledList
}

func newMainFixture(t *testing.T, l Listen) mainFixture {
	t.Helper()
	dis := &disabledList{}
	tc := core.NewToolCenter(dis.get)
	sampleTools(tc)
	wtc := core.NewWorkspaceToolCenter(nil)
	wtc.Register(core.WorkspaceToolFactory{Name: "whoami", Build: func(ws core.WorkspaceIdentity) core.Tool {
		return core.Tool{
			Name: "whoami", Description: "Report the workspace identity.",
			InputSchema: core.Schema(`{"type":"object","properties":{}}`),
			Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
				fromCtx, _ := WorkspaceFrom(ctx)
				return map[string]string{"closure": ws.ID, "label": ws.Label, "ctx": fromCtx.ID}, nil
			},
		}
	}})
	known := map[string]core.WorkspaceIdentity{
		"ws-1": {ID: "ws-1", Label: "Research"},
		"ws-2": {ID: "ws-2", Label: "Execution"},
	}
	if l.Host == "" {
		l.Host = "127.0.0.1"
	}
	srv := NewMain(MainOptions{
		Listen: l, Tools: tc, Workspaces: wtc,
		LookupWorkspace: func(id string) (core.WorkspaceIdentity, bool) { ws, ok := known[id]; return ws, ok },
		Logger:          quietLogger(), Version: "test",
	})
	startServer(t, srv)
	return mainFixture{srv: srv, disabled: dis}
}

func TestMainListsAndCallsTools(t *testing.T) {
	f := newMainFixture(t, Listen{})
	c := connect(t, f.srv.URL(), nil)
	assert.ElementsMatch(t, []string{"echo", "add", "chart", "boom"}, toolNames(t, c))

	res := callTool(t, c, "echo", map[string]any{"message": "hi"})
	assert.False(t, res.IsError)
	assert.JSONEq(t, `{"echo":"hi"}`, resultText(res))

	// Rich results keep their blocks: text then a native image.
	res = callTool(t, c, "chart", nil)
	require.Len(t, res.Content, 2)
	img, ok := mcpgo.AsImageContent(res.Content[1])
	require.True(t, ok)
	assert.Equal(t, "image/png", img.MIMEType)
	assert.Equal(t, "iVBORw0KGgo=", img.Data)
}

func TestMainToolErrorsAndBadArguments(t *testing.T) {
	f := newMainFixture(t, Listen{})
	c := connect(t, f.srv.URL(), nil)
	tests := []struct {
		name, tool string
		args       any
		wantErr    bool
		wantText   string
	}{
		{"handler error", "boom", nil, true, "Error: broker offline"},
		{"unknown parameter", "echo", map[string]any{"msg": "x"}, true, `unknown parameter "msg"`},
		{"wrong type", "echo", map[string]any{"message": 5}, true, `"message" must be string`},
		{"numeric strings coerced", "add", map[string]any{"a": "1.5", "b": "2"}, false, "3.5"},
		{"non-numeric string refused", "add", map[string]any{"a": "lots", "b": 1}, true, `"a" must be float64`},
		{"fractional integer refused", "add", map[string]any{"a": 1, "b": "2.5"}, true, `"b" must be int`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := callTool(t, c, tt.tool, tt.args)
			assert.Equal(t, tt.wantErr, res.IsError, resultText(res))
			assert.Contains(t, resultText(res), tt.wantText)
		})
	}
}

func TestMainDisabledToolDisappearsWithoutRestart(t *testing.T) {
	f := newMainFixture(t, Listen{})
	c := connect(t, f.srv.URL(), nil)
	require.Contains(t, toolNames(t, c), "boom")

	f.disabled.set("boom")
	assert.NotContains(t, toolNames(t, c), "boom")
	req := mcpgo.CallToolRequest{}
	req.Params.Name = "boom"
	_, err := c.CallTool(context.Background(), req)
	require.Error(t, err, "a disabled tool must not be callable")
	assert.Contains(t, err.Error(), "not found")

	f.disabled.set()
	assert.Contains(t, toolNames(t, c), "boom")
}

// A channel's disabled tools reach the CLI backends as ?without=: the
// client sees and can call everything else, never the hidden tools.
func TestMainWithoutParamHidesToolsForThatClient(t *testing.T) {
	f := newMainFixture(t, Listen{})
	c := connect(t, f.srv.URL()+"?"+WithoutParam+"=boom,%20chart", nil)
	assert.ElementsMatch(t, []string{"echo", "add"}, toolNames(t, c))
	req := mcpgo.CallToolRequest{}
	req.Params.Name = "boom"
	_, err := c.CallTool(context.Background(), req)
	require.Error(t, err, "a hidden tool must not be callable")
	res := callTool(t, c, "echo", map[string]any{"message": "still here"})
	assert.False(t, res.IsError)

	other := connect(t, f.srv.URL(), nil)
	assert.Contains(t, toolNames(t, other), "boom", "other clients keep the tool")
}

func TestWorkspaceEndpointInjectsIdentityFromURL(t *testing.T) {
	f := newMainFixture(t, Listen{})
	for _, ws := range []string{"ws-1", "ws-2"} {
		c := connect(t, f.srv.WorkspaceURL(ws), nil)
		assert.Equal(t, []string{"whoami"}, toolNames(t, c), "workspace endpoint exposes only workspace tools")
		var got map[string]string
		require.NoError(t, json.Unmarshal([]byte(resultText(callTool(t, c, "whoami", nil))), &got))
		assert.Equal(t, ws, got["closure"])
		assert.Equal(t, ws, got["ctx"])
	}
	// The main endpoint does not expose workspace tools.
	assert.NotContains(t, toolNames(t, connect(t, f.srv.URL(), nil)), "whoami")
}

func TestUnknownWorkspaceIs404(t *testing.T) {
	f := newMainFixture(t, Listen{})
	resp := post(t, f.srv.WorkspaceURL("nope"), initBody, nil)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Contains(t, readBody(resp), "unknown workspace")
	_, err := tryConnect(f.srv.WorkspaceURL("nope"), nil)
	require.Error(t, err)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

func post(t *testing.T, url, body string, hdr map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

func readBody(resp *http.Response) string {
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestBearerToken(t *testing.T) {
	f := newMainFixture(t, Listen{Token: "s3cret-token"})
	tests := []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"missing", nil, http.StatusUnauthorized},
		{"wrong", map[string]string{"Authorization": "Bearer nope"}, http.StatusUnauthorized},
		{"wrong scheme", map[string]string{"Authorization": "Basic s3cret-token"}, http.StatusUnauthorized},
		{"right", map[string]string{"Authorization": "Bearer s3cret-token"}, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := post(t, f.srv.URL(), initBody, tt.hdr)
			assert.Equal(t, tt.want, resp.StatusCode)
			if tt.want == http.StatusUnauthorized {
				assert.Contains(t, resp.Header.Get("WWW-Authenticate"), "Bearer")
			}
		})
	}
	_, err := tryConnect(f.srv.URL(), nil)
	require.Error(t, err)
	c := connect(t, f.srv.URL(), map[string]string{"Authorization": "Bearer s3cret-token"})
	assert.Contains(t, toolNames(t, c), "echo")
}

func TestHostAndOriginValidation(t *testing.T) {
	f := newMainFixture(t, Listen{AllowedOrigins: []string{"https://desk.example.com"}})
	tests := []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"plain loopback", nil, http.StatusOK},
		{"localhost host", map[string]string{"Host": "localhost:1234"}, http.StatusOK},
		{"rebinding host", map[string]string{"Host": "evil.example.com"}, http.StatusForbidden},
		{"foreign origin", map[string]string{"Origin": "http://evil.example.com"}, http.StatusForbidden},
		{"loopback origin", map[string]string{"Origin": "http://localhost:5173"}, http.StatusOK},
		{"allowed origin", map[string]string{"Origin": "https://desk.example.com"}, http.StatusOK},
		{"allowed origin's host", map[string]string{"Host": "desk.example.com"}, http.StatusOK},
		{"origin with other scheme", map[string]string{"Origin": "file://localhost"}, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := post(t, f.srv.URL(), initBody, tt.hdr)
			assert.Equal(t, tt.want, resp.StatusCode, readBody(resp))
		})
	}
}

func TestBodyCap(t *testing.T) {
	f := newMainFixture(t, Listen{MaxRequestBytes: 2048})
	big := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"` + strings.Repeat("x", 4096) + `"}}}`
	resp := post(t, f.srv.URL(), big, nil)
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)

	// Chunked bodies (no Content-Length) are capped too.
	req, err := http.NewRequest(http.MethodPost, f.srv.URL(), io.MultiReader(strings.NewReader(big)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = -1
	r2, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer r2.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, r2.StatusCode)

	// A small message still works on the same server.
	c := connect(t, f.srv.URL(), nil)
	assert.False(t, callTool(t, c, "echo", map[string]any{"message": "small"}).IsError)
}

func TestHandleMountsExtraRoute(t *testing.T) {
	tc := core.NewToolCenter(nil)
	srv := NewMain(MainOptions{Listen: Listen{Host: "127.0.0.1", Token: "mcp-only"}, Tools: tc, Logger: quietLogger()})
	srv.Handle("POST /api/events/ingest", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.WriteHeader(http.StatusAccepted)
		_, _ = w.Write(b)
	}))
	startServer(t, srv)
	base := strings.TrimSuffix(srv.URL(), "/mcp")
	resp := post(t, base+"/api/events/ingest", `{"type":"x"}`, nil)
	assert.Equal(t, http.StatusAccepted, resp.StatusCode, "extra routes own their auth, the MCP token does not apply")
	assert.Equal(t, `{"type":"x"}`, readBody(resp))
	// /mcp on the same listener still needs the token.
	assert.Equal(t, http.StatusUnauthorized, post(t, srv.URL(), initBody, nil).StatusCode)
}

func TestPortInUseIsAClearError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	srv := NewMain(MainOptions{Listen: Listen{Host: "127.0.0.1", Port: port}, Logger: quietLogger()})
	err = srv.Start(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "already in use")
	assert.Empty(t, srv.URL())
}

func TestStartCtxCancelStopsServer(t *testing.T) {
	srv := NewMain(MainOptions{Listen: Listen{Host: "127.0.0.1"}, Tools: core.NewToolCenter(nil), Logger: quietLogger()})
	ctx, cancel := context.WithCancel(context.Background())
	require.NoError(t, srv.Start(ctx))
	assert.True(t, srv.Running())
	addr := srv.Addr()
	cancel()
	require.Eventually(t, func() bool {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return true
		}
		_ = c.Close()
		return false
	}, 5e9, 1e7)
	assert.False(t, srv.Running())
	require.Error(t, srv.Start(context.Background()), "a stopped server cannot be restarted")
}

// Duplicate keys in tool arguments are refused naming the key, at any
// depth, before numeric coercion re-encodes (and would dedupe) them.
func TestMainRefusesDuplicateArgumentKeys(t *testing.T) {
	f := newMainFixture(t, Listen{})
	c := connect(t, f.srv.URL(), nil)
	for _, tt := range []struct {
		name, tool, args, key string
	}{
		{"top level, coerced number", "add", `{"a":"1","b":2,"a":"7"}`, `duplicate key "a"`},
		{"top level string", "echo", `{"message":"BUY","message":"SELL"}`, `duplicate key "message"`},
		{"nested", "echo", `{"message":"hi","takeProfit":{"price":"1","price":"9"}}`, `duplicate key "takeProfit.price"`},
		{"in an array", "echo", `{"message":"hi","legs":[{"p":1},{"p":1,"p":2}]}`, `duplicate key "legs[1].p"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := callTool(t, c, tt.tool, json.RawMessage(tt.args))
			require.True(t, res.IsError, resultText(res))
			assert.Contains(t, resultText(res), tt.key)
		})
	}
	// The same keys once each still work.
	res := callTool(t, c, "add", json.RawMessage(`{"a":"1","b":2}`))
	assert.False(t, res.IsError, resultText(res))
}
