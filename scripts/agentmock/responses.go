package main

import (
	"fmt"
	"net/http"
	"time"
)

// openaiResponse answers POST /v1/responses with the Responses API's
// streaming events for one assistant message (codex always streams).
func (m *mock) openaiResponse(w http.ResponseWriter, r *http.Request, req agentRequest) {
	p := m.pace
	text, long := req.reply()
	n := m.ids.Add(1)
	respID, itemID := fmt.Sprintf("resp_mock%04d", n), fmt.Sprintf("msg_mock%04d", n)
	outTokens := len(words(text))
	seq := 0
	response := func(status string, output []any, usage any) map[string]any {
		return map[string]any{"id": respID, "object": "response", "created_at": time.Now().Unix(),
			"status": status, "model": req.Model, "output": output, "usage": usage}
	}
	item := func(status string, content []any) map[string]any {
		return map[string]any{"id": itemID, "type": "message", "role": "assistant", "status": status, "content": content}
	}
	part := func(t string) map[string]any {
		return map[string]any{"type": "output_text", "text": t, "annotations": []any{}}
	}
	s := newSSE(w)
	send := func(event string, fields map[string]any) {
		fields["type"], fields["sequence_number"] = event, seq
		seq++
		s.send(event, fields)
	}
	send("response.created", map[string]any{"response": response("in_progress", []any{}, nil)})
	send("response.in_progress", map[string]any{"response": response("in_progress", []any{}, nil)})
	if long && !wait(r.Context(), p.think) {
		return
	}
	send("response.output_item.added", map[string]any{"output_index": 0, "item": item("in_progress", []any{})})
	send("response.content_part.added", map[string]any{"item_id": itemID, "output_index": 0, "content_index": 0, "part": part("")})
	for _, word := range words(text) {
		send("response.output_text.delta", map[string]any{"item_id": itemID, "output_index": 0, "content_index": 0, "delta": word})
		if long && !wait(r.Context(), p.word) {
			return
		}
	}
	send("response.output_text.done", map[string]any{"item_id": itemID, "output_index": 0, "content_index": 0, "text": text})
	send("response.content_part.done", map[string]any{"item_id": itemID, "output_index": 0, "content_index": 0, "part": part(text)})
	done := item("completed", []any{part(text)})
	send("response.output_item.done", map[string]any{"output_index": 0, "item": done})
	send("response.completed", map[string]any{"response": response("completed", []any{done}, map[string]any{
		"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": outTokens, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens": 10 + outTokens})})
}
