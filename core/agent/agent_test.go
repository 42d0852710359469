package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/aitools"
	"github.com/alice-trading/alice/core/provider"
	"github.com/alice-trading/alice/core/session"
)

// scripted decides the next model turn from the request body: the number
// of tool results so far picks the step.
type step struct {
	text     string
	toolName string
	toolArgs string
}

var script = []step{
	{text: "Let me work that out. ", toolName: "calculate", toolArgs: `{"expression":"(150 * 10) + 25.5"}`},
	{toolName: "getQuote", toolArgs: `{"aliceId":"sim|AAPL"}`},
	{text: "10 shares cost 1525.5, and AAPL last traded at 190.25."},
}

func toolResultsIn(body map[string]any) int {
	n := 0
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "tool" {
			n++
		}
		if blocks, ok := mm["content"].([]any); ok {
			for _, b := range blocks {
				if bm, _ := b.(map[string]any); bm["type"] == "tool_result" {
					n++
				}
			}
		}
	}
	return n
}

func sse(w http.ResponseWriter, event string, v any) {
	b, _ := json.Marshal(v)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	w.(http.Flusher).Flush()
}

// openAIServer speaks streamed chat completions with tool_calls deltas.
func openAIServer(t *testing.T, seen *[]map[string]any, mu *sync.Mutex) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.Equal(t, "/v1/chat/completions", r.URL.Path)
		var body map[string]any
		require.NoError(t, json.NewDecoder(r.Body).Decode(&body))
		mu.Lock()
		*seen = append(*seen, body)
		mu.Unlock()
		st := script[min(toolResultsIn(body), len(script)-1)]
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta map[string]any, finish any) {
			sse(w, "", map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		}
		chunk(map[string]any{"role": "assistant", "content": ""}, nil)
		for _, word := range strings.SplitAfter(st.text, " ") {
			if word != "" {
				chunk(map[string]any{"content": word}, nil)
			}
		}
		finish := "stop"
		if st.toolName != "" {
			finish = "tool_calls"
			id := fmt.Sprintf("call_%d", toolResultsIn(body))
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": id, "type": "function", "function": map[string]any{"name": st.toolName, "arguments": ""}}}}, nil)
			half := len(st.toolArgs) / 2
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": st.toolArgs[:half]}}}}, nil)
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": st.toolArgs[half:]}}}}, nil)
		}
		chunk(map[string]any{}, finish)
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
}

// anthropicServer speaks the Messages SSE stream with input_json_delta.
func anthropicServer(t *testing.T) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.Equal(t, "/v1/messages", r.URL.Path)
		require.Equal(t, "test-key", r.Header.Get("X-Api-Key"))
		var body map[string]any
		require.NoError(t, json.NewDecoder(r.Body).Decode(&body))
		st := script[min(toolResultsIn(body), len(script)-1)]
		w.Header().Set("Content-Type", "text/event-stream")
		sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "type": "message", "role": "assistant",
			"content": []any{}, "model": "claude-test", "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 5, "output_tokens": 1}}})
		idx := 0
		if st.text != "" {
			sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "text", "text": ""}})
			for _, word := range strings.SplitAfter(st.text, " ") {
				if word != "" {
					sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "text_delta", "text": word}})
				}
			}
			sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
			idx++
		}
		stop := "end_turn"
		if st.toolName != "" {
			stop = "tool_use"
			sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", toolResultsIn(body)), "name": st.toolName, "input": map[string]any{}}})
			half := len(st.toolArgs) / 2
			for _, part := range []string{st.toolArgs[:half], st.toolArgs[half:]} {
				sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
			}
			sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		}
		sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
		sse(w, "message_stop", map[string]any{"type": "message_stop"})
	}))
}

type fixture struct {
	center   *Center
	sessions *session.Store
	store    *config.Store
	dir      string
}

func newFixture(t *testing.T, providerJSON string) fixture {
	dir := t.TempDir()
	store := config.NewStore(filepath.Join(dir, "config"))
	require.NoError(t, os.MkdirAll(store.Dir(), 0o700))
	require.NoError(t, os.WriteFile(store.Path(config.AIProviderFile), []byte(providerJSON), 0o600))
	sessions, err := session.NewStore(filepath.Join(dir, "sessions"))
	require.NoError(t, err)
	tc := core.NewToolCenter(nil)
	aitools.Register(tc, sessions)
	tc.Register(core.Tool{Name: "getQuote", Description: "quote", InputSchema: core.Schema(`{"type":"object","properties":{"aliceId":{"type":"string"}},"required":["aliceId"]}`),
		Handler: func(_ context.Context, args json.RawMessage) (any, error) {
			var in struct {
				AliceID string `json:"aliceId"`
			}
			if err := core.DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			return map[string]string{"symbol": "AAPL", "last": "190.25"}, nil
		}})
	router := provider.NewRouter(store, func() string { return "" }).WithGetenv(func(string) string { return "" })
	c := New(Deps{Sessions: sessions, Router: router, Tools: tc, Config: store, Persona: func() string { return "You are Alice." }, DataDir: dir})
	return fixture{c, sessions, store, dir}
}

func TestAskWithSessionRunsAMultiStepToolConversation(t *testing.T) {
	var seen []map[string]any
	var mu sync.Mutex
	oa := openAIServer(t, &seen, &mu)
	defer oa.Close()
	an := anthropicServer(t)
	defer an.Close()
	backends := map[string]string{
		"openai":    `{"activeProfile":"p","profiles":{"p":{"backend":"openai","model":"m","baseUrl":"` + oa.URL + `/v1"}}}`,
		"anthropic": `{"activeProfile":"p","profiles":{"p":{"backend":"anthropic","model":"claude-test","baseUrl":"` + an.URL + `","apiKey":"test-key"}}}`,
	}
	for name, cfg := range backends {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, cfg)
			s, err := f.center.AskWithSession(context.Background(), "What do 10 AAPL cost?", "tui/default", Options{Channel: "tui"})
			require.NoError(t, err)
			var kinds []EventKind
			var deltas strings.Builder
			for ev := range s.Events() {
				kinds = append(kinds, ev.Kind)
				if ev.Kind == TextDelta {
					deltas.WriteString(ev.Text)
				}
			}
			res, err := s.Wait()
			require.NoError(t, err)
			require.Equal(t, "10 shares cost 1525.5, and AAPL last traded at 190.25.", res.Text)
			require.Len(t, res.ToolCalls, 2)
			require.Equal(t, []string{"calculate", "getQuote"}, []string{res.ToolCalls[0].Name, res.ToolCalls[1].Name})
			require.Contains(t, deltas.String(), "Let me work that out.")
			require.Equal(t, Done, kinds[len(kinds)-1])

			entries, err := f.sessions.Read("tui/default")
			require.NoError(t, err)
			// user, assistant(text+tool_use), user(tool_result), assistant(tool_use), user(tool_result), assistant(final)
			require.Len(t, entries, 6)
			roles := []string{}
			for _, e := range entries {
				roles = append(roles, e.Type)
			}
			require.Equal(t, []string{"user", "assistant", "user", "assistant", "user", "assistant"}, roles)
			require.Equal(t, "calculate", entries[1].Message.Content.Blocks[1].Name)
			require.JSONEq(t, `{"result":"1525.5"}`, entries[2].Message.Content.Blocks[0].Content, "the real tool ran")
			require.Equal(t, entries[1].Message.Content.Blocks[1].ID, entries[2].Message.Content.Blocks[0].ToolUseID)
			require.JSONEq(t, `{"symbol":"AAPL","last":"190.25"}`, entries[4].Message.Content.Blocks[0].Content)
			for i := 1; i < len(entries); i++ {
				require.Equal(t, entries[i-1].UUID, *entries[i].ParentUUID, "parent chain")
			}
			log, err := os.ReadFile(filepath.Join(f.dir, "tool-calls", "tool-calls.jsonl"))
			require.NoError(t, err)
			require.Equal(t, 2, strings.Count(string(log), "\n"))

			// A second turn sends the whole history back, tool calls included.
			s, err = f.center.AskWithSession(context.Background(), "thanks", "tui/default", Options{})
			require.NoError(t, err)
			_, err = s.Wait()
			require.NoError(t, err)
		})
	}
	mu.Lock()
	defer mu.Unlock()
	last := seen[len(seen)-1]
	msgs := last["messages"].([]any)
	require.Equal(t, "system", msgs[0].(map[string]any)["role"])
	require.GreaterOrEqual(t, len(msgs), 8, "history replayed with tool messages")
	require.NotEmpty(t, last["tools"])
}

func TestNoProviderExplainsHowToConfigure(t *testing.T) {
	f := newFixture(t, `{"activeProfile":"","profiles":{}}`)
	s, err := f.center.AskWithSession(context.Background(), "hi", "tui/default", Options{})
	require.NoError(t, err)
	_, err = s.Wait()
	require.ErrorIs(t, err, provider.ErrNoProvider)
	require.Contains(t, err.Error(), f.store.Path(config.AIProviderFile))
	require.Contains(t, err.Error(), `"backend": "anthropic"`)
	require.Equal(t, "not configured", f.center.ProviderLabel("tui"))
	entries, _ := f.sessions.Read("tui/default")
	require.Len(t, entries, 1, "the user's message is kept")
}

func TestBadSessionIDIsRefused(t *testing.T) {
	f := newFixture(t, `{"profiles":{}}`)
	_, err := f.center.AskWithSession(context.Background(), "hi", "../../etc/passwd", Options{})
	require.ErrorIs(t, err, session.ErrBadID)
}

func TestProviderErrorIsReported(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":{"message":"model overloaded","type":"invalid_request_error"}}`)
	}))
	defer srv.Close()
	f := newFixture(t, `{"activeProfile":"p","profiles":{"p":{"backend":"openai","model":"m","baseUrl":"`+srv.URL+`/v1"}}}`)
	s, err := f.center.AskWithSession(context.Background(), "hi", "a", Options{})
	require.NoError(t, err)
	_, err = s.Wait()
	require.Error(t, err)
	require.Contains(t, err.Error(), "model overloaded")
}

func TestCompactionManualAndAuto(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		msgs := body["messages"].([]any)
		last := msgs[len(msgs)-1].(map[string]any)["content"]
		text := "ok"
		if s, _ := last.(string); strings.Contains(s, "<conversation>") {
			text = "<summary>User holds 10 AAPL at 190.25.</summary>"
		}
		w.Header().Set("Content-Type", "text/event-stream")
		sse(w, "", map[string]any{"id": "x", "object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0, "delta": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}}})
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	f := newFixture(t, `{"activeProfile":"p","profiles":{"p":{"backend":"openai","model":"m","baseUrl":"`+srv.URL+`/v1"}}}`)
	ctx := context.Background()
	require.Error(t, f.center.Compact(ctx, "empty"), "nothing to compact")

	for i := 0; i < 3; i++ {
		s, err := f.center.AskWithSession(ctx, "message "+strings.Repeat("x", 100), "c", Options{})
		require.NoError(t, err)
		_, err = s.Wait()
		require.NoError(t, err)
	}
	require.NoError(t, f.center.Compact(ctx, "c"))
	active, _ := f.sessions.ReadActive("c")
	require.Equal(t, "compact_boundary", active[0].Subtype)
	require.Equal(t, "manual", active[0].CompactMetadata.Trigger)
	require.Contains(t, active[1].Message.Content.Text, "User holds 10 AAPL at 190.25.")
	require.True(t, active[1].IsCompactSummary)

	// The model's view is the summary; a person's transcript keeps the
	// older messages above the compaction row.
	hist, err := f.center.History("c", 0)
	require.NoError(t, err)
	require.Len(t, hist, 1)
	require.Equal(t, "compaction", hist[0].Kind)
	tr, err := f.center.Transcript("c", 0)
	require.NoError(t, err)
	require.Len(t, tr, 7, "3 questions, 3 answers, the compaction row")
	require.Equal(t, "user", tr[0].Kind)
	require.True(t, strings.HasPrefix(tr[0].Text, "message x"))
	require.Equal(t, "compaction", tr[6].Kind)
	require.Contains(t, tr[6].Summary, "User holds 10 AAPL")
	tail, err := f.center.Transcript("c", 2)
	require.NoError(t, err)
	require.Equal(t, []string{"assistant", "compaction"}, []string{tail[0].Kind, tail[1].Kind})

	// One exchange after the summary, then a tiny threshold makes the next
	// request compact first.
	s0, err := f.center.AskWithSession(ctx, "after the summary", "c", Options{})
	require.NoError(t, err)
	_, err = s0.Wait()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(f.store.Path(config.CompactionFile), []byte(`{"maxContextTokens":300,"maxOutputTokens":100,"autoCompactBuffer":100,"microcompactKeepRecent":3}`), 0o600))
	s, err := f.center.AskWithSession(ctx, strings.Repeat("y", 600), "c", Options{})
	require.NoError(t, err)
	_, err = s.Wait()
	require.NoError(t, err)
	all, _ := f.sessions.Read("c")
	boundaries := 0
	for _, e := range all {
		if e.Subtype == "compact_boundary" {
			boundaries++
			if e.CompactMetadata.Trigger == "auto" {
				require.Greater(t, e.CompactMetadata.PreTokens, 100)
			}
		}
	}
	require.Equal(t, 2, boundaries)
}

func TestMicrocompactTrimsOldToolResults(t *testing.T) {
	long := strings.Repeat("z", 600)
	var entries []session.Entry
	for i := 0; i < 5; i++ {
		entries = append(entries, session.NewBlocks("user", []session.Block{{Type: "tool_result", ToolUseID: fmt.Sprint(i), Content: long}}, "t"))
	}
	out := Microcompact(entries, 3)
	require.Equal(t, truncatedNote, out[0].Message.Content.Blocks[0].Content)
	require.Equal(t, truncatedNote, out[1].Message.Content.Blocks[0].Content)
	require.Equal(t, long, out[2].Message.Content.Blocks[0].Content)
	require.Equal(t, long, entries[0].Message.Content.Blocks[0].Content, "input untouched")
}

func TestCancelStopsTheTurn(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		sse(w, "", map[string]any{"id": "x", "object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0, "delta": map[string]any{"role": "assistant", "content": "partial answer"}}}})
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(block)
	f := newFixture(t, `{"activeProfile":"p","profiles":{"p":{"backend":"openai","model":"m","baseUrl":"`+srv.URL+`/v1"}}}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := f.center.AskWithSession(ctx, "hi", "x", Options{})
	require.NoError(t, err)
	for ev := range s.Events() {
		if ev.Kind == TextDelta {
			cancel()
		}
	}
	_, err = s.Wait()
	require.True(t, errors.Is(err, context.Canceled), "got %v", err)
	entries, _ := f.sessions.Read("x")
	require.Contains(t, entries[len(entries)-1].Message.Content.Text, "partial answer")
}
