package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/core"
)

func sse(w http.ResponseWriter, event string, v any) {
	b, _ := json.Marshal(v)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	w.(http.Flusher).Flush()
}

// captureServer records the request body and headers, then lets reply
// write the SSE stream.
func captureServer(t *testing.T, path string, reply func(w http.ResponseWriter)) (*httptest.Server, func() (map[string]any, http.Header)) {
	var body map[string]any
	var hdr http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.Error(w, "wrong path "+r.URL.Path, http.StatusNotFound)
			return
		}
		hdr = r.Header.Clone()
		_ = json.NewDecoder(r.Body).Decode(&body)
		w.Header().Set("Content-Type", "text/event-stream")
		reply(w)
	}))
	t.Cleanup(srv.Close)
	return srv, func() (map[string]any, http.Header) { return body, hdr }
}

var quoteTool = core.Tool{Name: "getQuote", Description: "Latest quote", InputSchema: core.Schema(
	`{"type":"object","properties":{"aliceId":{"type":"string"}},"required":["aliceId"],"additionalProperties":false}`)}

// history exercises every message shape: text, assistant tool calls and
// tool results.
var history = []Message{
	{Role: RoleUser, Text: "quote AAPL"},
	{Role: RoleAssistant, Text: "Looking.", ToolCalls: []ToolCall{{ID: "c0", Name: "getQuote", Input: json.RawMessage(`{"aliceId":"a|AAPL"}`)}}},
	{Role: RoleUser, ToolResults: []ToolResult{{ID: "c0", Content: `{"last":"190"}`}}},
}

func oaChunk(w http.ResponseWriter, delta map[string]any, finish any) {
	sse(w, "", map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
}

func oaTool(index int, id, name, args string) map[string]any {
	fn := map[string]any{"arguments": args}
	if name != "" {
		fn["name"] = name
	}
	tc := map[string]any{"index": index, "function": fn}
	if id != "" {
		tc["id"], tc["type"] = id, "function"
	}
	return map[string]any{"tool_calls": []any{tc}}
}

func TestOpenAIStreamsTextAndParallelToolCalls(t *testing.T) {
	srv, got := captureServer(t, "/v1/chat/completions", func(w http.ResponseWriter) {
		oaChunk(w, map[string]any{"role": "assistant", "content": "Two "}, nil)
		oaChunk(w, map[string]any{"content": "quotes."}, nil)
		oaChunk(w, oaTool(0, "call_a", "getQuote", ""), nil)
		oaChunk(w, oaTool(1, "call_b", "getQuote", `{"aliceId":`), nil)
		oaChunk(w, oaTool(0, "", "", `{"aliceId":"a|MSFT"}`), nil)
		oaChunk(w, oaTool(1, "", "", `"a|NVDA"}`), nil)
		oaChunk(w, map[string]any{}, "tool_calls")
		fmt.Fprint(w, "data: [DONE]\n\n")
	})
	p := NewOpenAI(srv.URL+"/v1", "sk-x", "gpt-test")
	evs := collectEvents(p.Stream(context.Background(), Request{System: "sys", Messages: history, Tools: []core.Tool{quoteTool}, MaxTokens: 99}))
	require.Len(t, evs, 5)
	require.Equal(t, "Two ", evs[0].Text)
	require.Equal(t, "quotes.", evs[1].Text)
	require.Equal(t, ToolCall{ID: "call_a", Name: "getQuote", Input: json.RawMessage(`{"aliceId":"a|MSFT"}`)}, evs[2].ToolCall)
	require.Equal(t, ToolCall{ID: "call_b", Name: "getQuote", Input: json.RawMessage(`{"aliceId":"a|NVDA"}`)}, evs[3].ToolCall)
	require.Equal(t, EventDone, evs[4].Kind)
	require.Equal(t, "tool_calls", evs[4].StopReason)

	body, hdr := got()
	require.Equal(t, "Bearer sk-x", hdr.Get("Authorization"))
	require.Equal(t, true, body["stream"])
	require.EqualValues(t, 99, body["max_tokens"], "compatible servers get the classic max_tokens")
	msgs := body["messages"].([]any)
	roles := []string{}
	for _, m := range msgs {
		roles = append(roles, m.(map[string]any)["role"].(string))
	}
	require.Equal(t, []string{"system", "user", "assistant", "tool"}, roles)
	asst := msgs[2].(map[string]any)
	call := asst["tool_calls"].([]any)[0].(map[string]any)
	require.Equal(t, "c0", call["id"])
	require.JSONEq(t, `{"aliceId":"a|AAPL"}`, call["function"].(map[string]any)["arguments"].(string))
	require.Equal(t, "c0", msgs[3].(map[string]any)["tool_call_id"])
	tool := body["tools"].([]any)[0].(map[string]any)
	require.Equal(t, "function", tool["type"])
	fn := tool["function"].(map[string]any)
	require.Equal(t, "getQuote", fn["name"])
	require.Equal(t, false, fn["parameters"].(map[string]any)["additionalProperties"])
}

func TestOpenAICompatibleQuirks(t *testing.T) {
	// Every call at index 0 (distinguished only by id), no ids on one call,
	// and arguments that are not JSON.
	srv, _ := captureServer(t, "/v1/chat/completions", func(w http.ResponseWriter) {
		oaChunk(w, oaTool(0, "x1", "getQuote", `{"aliceId":"a|A"}`), nil)
		oaChunk(w, oaTool(0, "x2", "getQuote", `not json`), nil)
		oaChunk(w, map[string]any{}, "tool_calls")
		fmt.Fprint(w, "data: [DONE]\n\n")
	})
	evs := collectEvents(NewOpenAI(srv.URL+"/v1", "", "m").Stream(context.Background(), Request{Messages: history[:1]}))
	require.Len(t, evs, 3)
	require.Equal(t, "x1", evs[0].ToolCall.ID)
	require.JSONEq(t, `{"aliceId":"a|A"}`, string(evs[0].ToolCall.Input))
	require.Equal(t, "x2", evs[1].ToolCall.ID)
	require.Equal(t, "not json", evs[1].ToolCall.InvalidInput)
	require.JSONEq(t, `{}`, string(evs[1].ToolCall.Input), "persisted input stays valid JSON")

	var a toolCallAssembler
	a.add(0, "", "calculate", `{"expression":"1+1"}`)
	calls := a.done()
	require.Len(t, calls, 1)
	require.NotEmpty(t, calls[0].ID, "a missing id is generated")
}

func TestOpenAIErrorsAreDescribed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":{"message":"model \"qwen9\" not found, try pulling it first","type":"api_error"}}`)
	}))
	defer srv.Close()
	evs := collectEvents(NewOpenAI(srv.URL+"/v1", "", "qwen9").Stream(context.Background(), Request{Messages: history[:1]}))
	require.Len(t, evs, 1)
	require.Equal(t, EventError, evs[0].Kind)
	require.EqualError(t, evs[0].Err, `HTTP 404: model "qwen9" not found, try pulling it first`)
}

func anMessageStart(w http.ResponseWriter) {
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "type": "message", "role": "assistant",
		"content": []any{}, "model": "claude-test", "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 5, "output_tokens": 1}}})
}

func anToolBlock(w http.ResponseWriter, idx int, id, name string, parts ...string) {
	sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "tool_use", "id": id, "name": name, "input": map[string]any{}}})
	for _, p := range parts {
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "input_json_delta", "partial_json": p}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
}

func TestAnthropicStreamsTextAndToolUse(t *testing.T) {
	srv, got := captureServer(t, "/v1/messages", func(w http.ResponseWriter) {
		anMessageStart(w)
		sse(w, "ping", map[string]any{"type": "ping"})
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		for _, s := range []string{"Checking ", "both."} {
			sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": s}})
		}
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		anToolBlock(w, 1, "toolu_1", "getQuote", `{"alice`, `Id":"a|MSFT"}`)
		anToolBlock(w, 2, "toolu_2", "getQuote", `{"aliceId":"a|NVDA"}`)
		sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "tool_use", "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
		sse(w, "message_stop", map[string]any{"type": "message_stop"})
	})
	p := NewAnthropic(srv.URL, "test-key", "claude-test", false, 0)
	evs := collectEvents(p.Stream(context.Background(), Request{System: "sys", Messages: history, Tools: []core.Tool{quoteTool}}))
	require.Len(t, evs, 5)
	require.Equal(t, "Checking ", evs[0].Text)
	require.Equal(t, "toolu_1", evs[2].ToolCall.ID)
	require.JSONEq(t, `{"aliceId":"a|MSFT"}`, string(evs[2].ToolCall.Input), "input_json_delta parts joined")
	require.JSONEq(t, `{"aliceId":"a|NVDA"}`, string(evs[3].ToolCall.Input))
	require.Equal(t, "tool_use", evs[4].StopReason)

	body, hdr := got()
	require.Equal(t, "test-key", hdr.Get("X-Api-Key"))
	require.EqualValues(t, 8192, body["max_tokens"])
	require.Equal(t, "sys", body["system"].([]any)[0].(map[string]any)["text"])
	require.Equal(t, map[string]any{"type": "ephemeral"}, body["system"].([]any)[0].(map[string]any)["cache_control"], "tools+system cached")
	msgs := body["messages"].([]any)
	require.Len(t, msgs, 3)
	asst := msgs[1].(map[string]any)["content"].([]any)
	require.Equal(t, "tool_use", asst[1].(map[string]any)["type"])
	require.Equal(t, map[string]any{"aliceId": "a|AAPL"}, asst[1].(map[string]any)["input"])
	res := msgs[2].(map[string]any)["content"].([]any)[0].(map[string]any)
	require.Equal(t, "tool_result", res["type"])
	require.Equal(t, "c0", res["tool_use_id"])
	require.Equal(t, map[string]any{"type": "ephemeral"}, res["cache_control"], "the conversation prefix is cached")
	schema := body["tools"].([]any)[0].(map[string]any)["input_schema"].(map[string]any)
	require.Equal(t, "object", schema["type"])
	require.Equal(t, []any{"aliceId"}, schema["required"])
	require.Equal(t, false, schema["additionalProperties"], "extra schema keywords survive")
}

func TestAnthropicBearerAndErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.Equal(t, "Bearer gw-token", r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(529)
		fmt.Fprint(w, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	}))
	defer srv.Close()
	evs := collectEvents(NewAnthropic(srv.URL, "gw-token", "m", true, 0).Stream(context.Background(), Request{Messages: history[:1]}))
	require.Len(t, evs, 1)
	require.EqualError(t, evs[0].Err, "HTTP 529: Overloaded")

	// An error event in the middle of a stream surfaces too.
	srv2, _ := captureServer(t, "/v1/messages", func(w http.ResponseWriter) {
		anMessageStart(w)
		sse(w, "error", map[string]any{"type": "error", "error": map[string]any{"type": "overloaded_error", "message": "Overloaded"}})
	})
	evs = collectEvents(NewAnthropic(srv2.URL, "k", "m", false, 0).Stream(context.Background(), Request{Messages: history[:1]}))
	require.Equal(t, EventError, evs[len(evs)-1].Kind)
	require.Contains(t, evs[len(evs)-1].Err.Error(), "Overloaded")
}
