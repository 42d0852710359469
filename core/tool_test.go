package core

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func echoTool(name string) Tool {
	return Tool{
		Name: name, Group: "test", Description: "echo",
		InputSchema: Schema(`{"type":"object","properties":{"msg":{"type":"string"}},"required":["msg"]}`),
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			var in struct {
				Msg string `json:"msg"`
			}
			if err := DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			if in.Msg == "panic" {
				panic("boom")
			}
			return map[string]string{"echo": in.Msg}, nil
		},
	}
}

func TestToolCenterDisabledListIsReadOnEachCall(t *testing.T) {
	var disabled []string
	tc := NewToolCenter(func() []string { return disabled })
	tc.Register(echoTool("a"), echoTool("b"))
	require.Len(t, tc.Tools(), 2)
	disabled = []string{"a"}
	tools := tc.Tools()
	require.Len(t, tools, 1)
	require.Equal(t, "b", tools[0].Name)
	_, err := tc.Call(context.Background(), "a", json.RawMessage(`{"msg":"x"}`))
	require.ErrorIs(t, err, ErrUnknownTool)
	require.Len(t, tc.Tools("b"), 0, "per-call extra disabled")
	inv := tc.Inventory()
	require.True(t, inv[0].Disabled)
}

func TestToolCallErrorsNeverPanic(t *testing.T) {
	tc := NewToolCenter(nil)
	tc.Register(echoTool("e"))
	ctx := context.Background()
	res, err := tc.Call(ctx, "e", json.RawMessage(`{"msg":"hi"}`))
	require.NoError(t, err)
	require.JSONEq(t, `{"echo":"hi"}`, ResultText(res))
	for _, bad := range []string{`{"msg":5}`, `{"msg":"x","extra":1}`, `[1]`, `{`} {
		_, err := tc.Call(ctx, "e", json.RawMessage(bad))
		require.Error(t, err, bad)
		require.Contains(t, err.Error(), "invalid arguments")
	}
	_, err = tc.Call(ctx, "e", json.RawMessage(`{"msg":"panic"}`))
	require.ErrorContains(t, err, "boom")
	res, err = tc.Call(ctx, "e", nil)
	require.NoError(t, err, "nil args become {}")
	require.JSONEq(t, `{"echo":""}`, ResultText(res))
}

func TestRegisterReplacesAndValidates(t *testing.T) {
	tc := NewToolCenter(nil)
	tc.Register(echoTool("x"))
	second := echoTool("x")
	second.Description = "second"
	tc.Register(second)
	require.Len(t, tc.Tools(), 1)
	require.Equal(t, "second", tc.Tools()[0].Description)
	require.Panics(t, func() {
		tc.Register(Tool{Name: "bad", Handler: echoTool("").Handler, InputSchema: json.RawMessage(`{"type":"string"}`)})
	})
	require.Panics(t, func() { tc.Register(Tool{Name: "nohandler", InputSchema: Schema(`{"type":"object"}`)}) })
}

func TestResultText(t *testing.T) {
	require.Equal(t, "plain", ResultText("plain"))
	require.Equal(t, "a\n[image]", ResultText(&ToolResult{Content: []ContentBlock{{Type: "text", Text: "a"}, {Type: "image", Data: "xx"}}}))
	require.Equal(t, `{"n":1}`, ResultText(map[string]int{"n": 1}))
}

func TestWorkspaceToolsCloseOverIdentity(t *testing.T) {
	off := []string{}
	w := NewWorkspaceToolCenter(func() []string { return off })
	w.Register(WorkspaceToolFactory{Name: "whoami", Build: func(ws WorkspaceIdentity) Tool {
		return Tool{Name: "whoami", InputSchema: Schema(`{"type":"object"}`), Handler: func(context.Context, json.RawMessage) (any, error) {
			if ws.ID == "" {
				return nil, errors.New("no identity")
			}
			return ws.ID, nil
		}}
	}})
	tools := w.ToolsFor(WorkspaceIdentity{ID: "ws-1"})
	require.Len(t, tools, 1)
	res, err := tools[0].Invoke(context.Background(), nil)
	require.NoError(t, err)
	require.Equal(t, "ws-1", res)
	off = []string{"whoami"}
	require.Empty(t, w.ToolsFor(WorkspaceIdentity{ID: "ws-1"}))
}

func TestInvokeRefusesDuplicateKeys(t *testing.T) {
	called := false
	tl := Tool{Name: "t", Handler: func(context.Context, json.RawMessage) (any, error) { called = true; return "ok", nil }}
	_, err := tl.Invoke(context.Background(), json.RawMessage(`{"totalQuantity":"1","x":{"y":[{"a":1,"a":2}]},"totalQuantity":"7"}`))
	if err == nil || !strings.Contains(err.Error(), `duplicate key "x.y[0].a"`) || called {
		t.Fatalf("err = %v, called = %v", err, called)
	}
	_, err = tl.Invoke(context.Background(), json.RawMessage(`{"action":"BUY","action":"SELL"}`))
	if err == nil || !strings.Contains(err.Error(), `duplicate key "action"`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := tl.Invoke(context.Background(), json.RawMessage(`{"a":{"k":1},"b":{"k":1}}`)); err != nil || !called {
		t.Fatalf("same key in sibling objects: err = %v", err)
	}
}
