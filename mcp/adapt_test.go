package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/alice-trading/alice/core"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCoerceNumbers(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"qty":{"type":"number"},"n":{"type":"integer"},"name":{"type":"string"},
		"either":{"type":["string","number"]},"opt":{"type":["number","null"]}}}`)
	tests := []struct {
		name, in, want string
	}{
		{"number string", `{"qty":"1.25"}`, `{"qty":1.25}`},
		{"integer string", `{"n":"42"}`, `{"n":42}`},
		{"nullable number", `{"opt":"7"}`, `{"opt":7}`},
		{"leading plus normalised", `{"qty":"+3"}`, `{"qty":3}`},
		{"spaces trimmed", `{"qty":" 2 "}`, `{"qty":2}`},
		{"precision kept", `{"qty":"0.123456789012345678901"}`, `{"qty":0.123456789012345678901}`},
		{"fractional integer left alone", `{"n":"2.5"}`, `{"n":"2.5"}`},
		{"garbage left alone", `{"qty":"lots"}`, `{"qty":"lots"}`},
		{"NaN left alone", `{"qty":"NaN"}`, `{"qty":"NaN"}`},
		{"hex left alone", `{"qty":"0x10"}`, `{"qty":"0x10"}`},
		{"string param untouched", `{"name":"5"}`, `{"name":"5"}`},
		{"string-or-number untouched", `{"either":"5"}`, `{"either":"5"}`},
		{"real numbers untouched", `{"qty":1}`, `{"qty":1}`},
		{"not an object", `[1,2]`, `[1,2]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.JSONEq(t, tt.want, string(coerceNumbers(schema, json.RawMessage(tt.in))))
		})
	}
}

func TestToCallResult(t *testing.T) {
	r := toCallResult(map[string]int{"a": 1})
	assert.False(t, r.IsError)
	assert.JSONEq(t, `{"a":1}`, resultText(r))
	assert.Equal(t, "plain", resultText(toCallResult("plain")))
	r = toCallResult(&core.ToolResult{IsError: true, Content: []core.ContentBlock{{Type: "text", Text: "bad"}, {Type: "audio"}}})
	assert.True(t, r.IsError)
	assert.Equal(t, "bad\n[audio]", resultText(r))
}

func TestShutdownEndsOpenStreams(t *testing.T) {
	tc := core.NewToolCenter(nil)
	srv := NewMain(MainOptions{Listen: Listen{Host: "127.0.0.1"}, Tools: tc, Logger: quietLogger()})
	require.NoError(t, srv.Start(context.Background()))

	// A client holding the standalone GET SSE stream open must not block
	// shutdown.
	req, err := http.NewRequest(http.MethodGet, srv.URL(), nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", "mcp-session-00000000-0000-0000-0000-000000000000")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()

	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, srv.Shutdown(ctx))
	assert.Less(t, time.Since(start), 5*time.Second, fmt.Sprintf("GET status %d", resp.StatusCode))
}

func TestCatalogRunsCurrentHandlerAndStaysBounded(t *testing.T) {
	schema := core.Schema(`{"type":"object","properties":{}}`)
	version := 1
	tc := core.NewToolCenter(nil)
	register := func(desc string) {
		v := version
		tc.Register(core.Tool{Name: "ver", Description: desc, InputSchema: schema,
			Handler: func(context.Context, json.RawMessage) (any, error) { return v, nil }})
	}
	register("same")
	srv := NewMain(MainOptions{Listen: Listen{Host: "127.0.0.1"}, Tools: tc, Logger: quietLogger()})
	startServer(t, srv)
	c := connect(t, srv.URL(), nil)
	assert.Equal(t, "1", resultText(callTool(t, c, "ver", nil)))

	// Same definition, new handler: the cached server must run the new one.
	version = 2
	register("same")
	assert.Equal(t, "2", resultText(callTool(t, c, "ver", nil)))

	// A changed description is visible at once.
	register("changed")
	res, err := c.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	require.NoError(t, err)
	require.Len(t, res.Tools, 1)
	assert.Equal(t, "changed", res.Tools[0].Description)

	cat := newCatalog("x", "0", quietLogger(), newSessions("x", SessionLimits{}))
	for i := range maxCatalogs * 2 {
		cat.handlerFor([]core.Tool{{Name: fmt.Sprintf("t%d", i), InputSchema: schema}})
	}
	assert.Len(t, cat.entries, maxCatalogs)
	assert.Len(t, cat.order, maxCatalogs)
}
