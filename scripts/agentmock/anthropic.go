package main

import (
	"fmt"
	"net/http"
)

// anthropicUsage is the Messages API usage object with every counter the
// clients read.
func anthropicUsage(in, out int) map[string]any {
	return map[string]any{"input_tokens": in, "output_tokens": out,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}

// anthropicMessage answers POST /v1/messages in the Messages API's shape:
// a stream of events when asked to stream, else one message.
func (m *mock) anthropicMessage(w http.ResponseWriter, r *http.Request, req agentRequest) {
	p := m.pace
	text, long := req.reply()
	id := fmt.Sprintf("msg_mock%04d", m.ids.Add(1))
	outTokens := len(words(text))
	if !req.Stream {
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": req.Model,
			"content":     []any{map[string]any{"type": "text", "text": text}},
			"stop_reason": "end_turn", "stop_sequence": nil, "usage": anthropicUsage(10, outTokens)})
		return
	}
	s := newSSE(w)
	s.send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": anthropicUsage(10, 1)}})
	if long && !wait(r.Context(), p.think) {
		return
	}
	s.send("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "text", "text": ""}})
	s.send("ping", map[string]any{"type": "ping"})
	for _, word := range words(text) {
		s.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": word}})
		if long && !wait(r.Context(), p.word) {
			return
		}
	}
	s.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	s.send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": outTokens}})
	s.send("message_stop", map[string]any{"type": "message_stop"})
}
