// Package script is scripts/mockllm's scripted OpenAI-compatible chat completions server
// for end-to-end tests of alice without network or keys. It speaks the real
// streaming wire format (chat.completion.chunk SSE with tool_calls deltas).
//
// Script:
//   - "buy <qty> <SYMBOL>" → placeOrder (MKT BUY on sim-paper), then
//     tradingCommit, then tradingPush, then a closing sentence;
//   - "price <SYMBOL>"     → getQuote, then the quoted last price;
//   - "delegate <tag>: <command line>" → workspaceCreate (shell-only),
//     workspaceStartAgent (shell, the command as its prompt),
//     workspaceStatus, workspaceDiff, then a summary quoting the diff;
//   - "report <tag>"       → workspaceStatus, workspaceDiff, then a summary
//     quoting the diff (what a model does once the delegated work is done);
//   - a tool answering "Error: …" ends the turn: "I could not do that. Error: …";
//   - "which model"        → "This is model <the request's model>." (tells
//     provider profiles apart);
//   - anything else        → "You said: <text>".
//
// Handler serves it; tests mount it on httptest, the command on a port.
package script

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"time"
)

type message struct {
	Role       string `json:"role"`
	Content    any    `json:"content"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	ToolCalls  []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tool_calls,omitempty"`
}

type request struct {
	Model    string    `json:"model"`
	Messages []message `json:"messages"`
	Stream   bool      `json:"stream"`
}

type reply struct {
	text     string
	toolName string
	toolArgs string
}

var buyRe = regexp.MustCompile(`(?i)\bbuy\s+([0-9.]+)\s+([A-Za-z]+)`)
var priceRe = regexp.MustCompile(`(?i)\bprice\s+([A-Za-z]+)`)
var modelRe = regexp.MustCompile(`(?i)\bwhich model\b`)
var delegateRe = regexp.MustCompile(`(?i)\bdelegate\s+([a-z0-9][a-z0-9_-]*)\s*:\s*(.+)$`)
var reportRe = regexp.MustCompile(`(?i)^\s*report\s+([a-z0-9][a-z0-9_-]*)\s*$`)

func text(c any) string {
	switch v := c.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, p := range v {
			if m, ok := p.(map[string]any); ok {
				if s, ok := m["text"].(string); ok {
					b.WriteString(s)
				}
			}
		}
		return b.String()
	}
	return ""
}

// decide picks the next step from the conversation so far.
func decide(msgs []message) reply {
	lastUser, lastTool := "", ""
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role == "user" {
			lastUser = text(m.Content)
			break
		}
	}
	// The tool that produced the most recent result, if the turn is mid-loop.
	if n := len(msgs); n > 0 && msgs[n-1].Role == "tool" {
		for i := n - 1; i >= 0; i-- {
			if msgs[i].Role == "assistant" && len(msgs[i].ToolCalls) > 0 {
				lastTool = msgs[i].ToolCalls[len(msgs[i].ToolCalls)-1].Function.Name
				break
			}
		}
	}
	// A failed tool (e.g. disabled in this channel) ends the turn saying so.
	if n := len(msgs); n > 0 && msgs[n-1].Role == "tool" && strings.HasPrefix(text(msgs[n-1].Content), "Error:") {
		return reply{text: "I could not do that. " + text(msgs[n-1].Content)}
	}
	if m := reportRe.FindStringSubmatch(lastUser); m != nil {
		ws, _ := json.Marshal(map[string]any{"workspaceId": m[1]})
		switch lastTool {
		case "":
			return reply{toolName: "workspaceStatus", toolArgs: string(ws)}
		case "workspaceStatus":
			return reply{toolName: "workspaceDiff", toolArgs: string(ws)}
		case "workspaceDiff":
			return reply{text: "Workspace " + m[1] + " changed: " + text(msgs[len(msgs)-1].Content)}
		}
	}
	if m := delegateRe.FindStringSubmatch(lastUser); m != nil {
		if r, ok := delegateStep(lastTool, m[1], m[2], msgs); ok {
			return r
		}
	}
	switch lastTool {
	case "placeOrder":
		return reply{toolName: "tradingCommit", toolArgs: `{"source":"sim-paper","message":"scripted buy"}`}
	case "tradingCommit":
		return reply{toolName: "tradingPush", toolArgs: `{"source":"sim-paper"}`}
	case "tradingPush":
		return reply{text: "Order staged and committed. **Approve it in the Portfolio pane** to execute."}
	case "getQuote":
		return reply{text: "Here is the quote: " + text(msgs[len(msgs)-1].Content)}
	}
	if m := buyRe.FindStringSubmatch(lastUser); m != nil {
		sym := strings.ToUpper(m[2])
		args, _ := json.Marshal(map[string]string{"source": "sim-paper", "aliceId": "sim-paper|" + sym, "symbol": sym,
			"action": "BUY", "orderType": "MKT", "totalQuantity": m[1], "tif": "DAY"})
		return reply{text: "Staging the order.", toolName: "placeOrder", toolArgs: string(args)}
	}
	if modelRe.MatchString(lastUser) {
		return reply{} // newMux answers with the request's model
	}
	if m := priceRe.FindStringSubmatch(lastUser); m != nil {
		return reply{toolName: "getQuote", toolArgs: fmt.Sprintf(`{"aliceId":"sim-paper|%s"}`, strings.ToUpper(m[1]))}
	}
	return reply{text: "You said: " + lastUser}
}

// delegateStep walks the delegation flow one tool at a time.
func delegateStep(lastTool, tag, command string, msgs []message) (reply, bool) {
	ws, _ := json.Marshal(map[string]any{"workspaceId": tag})
	switch lastTool {
	case "":
		args, _ := json.Marshal(map[string]any{"tag": tag, "template": "shell-only"})
		return reply{text: "Creating a workspace for it.", toolName: "workspaceCreate", toolArgs: string(args)}, true
	case "workspaceCreate":
		args, _ := json.Marshal(map[string]any{"workspaceId": tag, "agent": "shell", "prompt": command})
		return reply{toolName: "workspaceStartAgent", toolArgs: string(args)}, true
	case "workspaceStartAgent":
		args, _ := json.Marshal(map[string]any{"workspaceId": tag, "lines": 10})
		return reply{toolName: "workspaceStatus", toolArgs: string(args)}, true
	case "workspaceStatus":
		return reply{toolName: "workspaceDiff", toolArgs: string(ws)}, true
	case "workspaceDiff":
		return reply{text: "Delegated to workspace " + tag + ". Changes: " + text(msgs[len(msgs)-1].Content)}, true
	}
	return reply{}, false
}

// newMux serves the scripted API, pausing wordDelay between streamed
// words (0: at once).
func newMux(wordDelay time.Duration) *http.ServeMux {
	var n atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"object":"list","data":[{"id":"mock","object":"model"}]}`)
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		rep := decide(req.Messages)
		if rep.text == "" && rep.toolName == "" {
			rep.text = "This is model " + req.Model + "."
		}
		id := fmt.Sprintf("chatcmpl-%d", n.Add(1))
		if !req.Stream {
			writeJSON(w, id, req.Model, rep)
			return
		}
		writeSSE(w, id, req.Model, rep, wordDelay)
	})
	return mux
}

// DefaultWordDelay paces streamed words so a TUI shows them arriving.
const DefaultWordDelay = 15 * time.Millisecond

// Handler serves the scripted API under /v1.
func Handler() http.Handler { return newMux(DefaultWordDelay) }

// HandlerWithDelay is Handler with another pause between streamed words
// (0 for load tests that run hundreds of turns).
func HandlerWithDelay(wordDelay time.Duration) http.Handler { return newMux(wordDelay) }

func writeJSON(w http.ResponseWriter, id, model string, rep reply) {
	msg := map[string]any{"role": "assistant", "content": rep.text}
	finish := "stop"
	if rep.toolName != "" {
		msg["tool_calls"] = []any{map[string]any{"id": "call_" + id, "type": "function",
			"function": map[string]any{"name": rep.toolName, "arguments": rep.toolArgs}}}
		finish = "tool_calls"
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}})
}

func writeSSE(w http.ResponseWriter, id, model string, rep reply, wordDelay time.Duration) {
	w.Header().Set("Content-Type", "text/event-stream")
	fl, _ := w.(http.Flusher)
	send := func(delta map[string]any, finish any) {
		chunk := map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		b, _ := json.Marshal(chunk)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	send(map[string]any{"role": "assistant", "content": ""}, nil)
	for _, word := range strings.SplitAfter(rep.text, " ") {
		if word != "" {
			send(map[string]any{"content": word}, nil)
			if wordDelay > 0 {
				time.Sleep(wordDelay)
			}
		}
	}
	finish := "stop"
	if rep.toolName != "" {
		finish = "tool_calls"
		send(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": "call_" + id, "type": "function",
			"function": map[string]any{"name": rep.toolName, "arguments": ""}}}}, nil)
		half := len(rep.toolArgs) / 2
		for _, part := range []string{rep.toolArgs[:half], rep.toolArgs[half:]} {
			send(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": part}}}}, nil)
		}
	}
	send(map[string]any{}, finish)
	fmt.Fprint(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}
