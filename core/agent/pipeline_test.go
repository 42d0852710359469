package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/session"
)

// turn is one scripted model reply: text and/or one tool call.
type turn struct {
	text, tool, args string
}

// scriptedOpenAI answers each request with reply(body) as a streamed chat
// completion and records every request body.
type scriptedOpenAI struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []map[string]any
}

func newScriptedOpenAI(t *testing.T, reply func(body map[string]any) turn) *scriptedOpenAI {
	s := &scriptedOpenAI{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		n := len(s.bodies)
		s.mu.Unlock()
		tr := reply(body)
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta map[string]any, finish any) {
			sse(w, "", map[string]any{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		}
		if tr.text != "" {
			chunk(map[string]any{"role": "assistant", "content": tr.text}, nil)
		}
		finish := "stop"
		if tr.tool != "" {
			finish = "tool_calls"
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": fmt.Sprintf("call_%d", n), "type": "function",
				"function": map[string]any{"name": tr.tool, "arguments": tr.args}}}}, nil)
		}
		chunk(map[string]any{}, finish)
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *scriptedOpenAI) profile() string {
	return `{"activeProfile":"p","profiles":{"p":{"backend":"openai","model":"m","baseUrl":"` + s.URL + `/v1"}}}`
}

func (s *scriptedOpenAI) last() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[len(s.bodies)-1]
}

func lastUserContent(body map[string]any) string {
	msgs := body["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i].(map[string]any)
		if m["role"] == "user" {
			s, _ := m["content"].(string)
			return s
		}
	}
	return ""
}

func ask(t *testing.T, c *Center, sessionID, prompt string, opts Options) (Result, error) {
	t.Helper()
	s, err := c.AskWithSession(context.Background(), prompt, sessionID, opts)
	require.NoError(t, err)
	return s.Wait()
}

func writeConfig(t *testing.T, store *config.Store, name, body string) {
	require.NoError(t, os.WriteFile(store.Path(name), []byte(body), 0o600))
}

func TestSelfLoopingCLIRecordsEveryStep(t *testing.T) {
	fake, err := filepath.Abs("../provider/testdata/fake-claude.sh")
	require.NoError(t, err)
	stdinFile := filepath.Join(t.TempDir(), "stdin")
	t.Setenv("FAKE_STDIN_FILE", stdinFile)
	f := newFixture(t, `{"activeProfile":"cc","profiles":{"cc":{"backend":"claude-cli","command":"`+fake+`"}}}`)

	s, err := f.center.AskWithSession(context.Background(), "quote AAPL and tell me", "telegram/1", Options{})
	require.NoError(t, err)
	var kinds []EventKind
	var done *Result
	for ev := range s.Events() {
		kinds = append(kinds, ev.Kind)
		if ev.Kind == Done {
			done = ev.Result
		}
	}
	require.Equal(t, []EventKind{TextDelta, ToolUse, ToolResult, ToolUse, ToolResult, TextDelta, Done}, kinds)
	res, err := s.Wait()
	require.NoError(t, err)
	require.Equal(t, "AAPL is at 190.25.", res.Text)
	require.Equal(t, res, *done, "Done carries the result")
	require.Equal(t, "notify_user", res.ToolCalls[1].Name, "the heartbeat gate can see notify_user")
	require.JSONEq(t, `{"text":"AAPL at 190.25","urgency":"info"}`, string(res.ToolCalls[1].Input))

	entries, err := f.sessions.Read("telegram/1")
	require.NoError(t, err)
	var shape []string
	for _, e := range entries {
		var kinds []string
		if e.Message.Content.Blocks == nil {
			kinds = append(kinds, "string")
		}
		for _, b := range e.Message.Content.Blocks {
			kinds = append(kinds, b.Type)
		}
		shape = append(shape, e.Type+":"+strings.Join(kinds, ","))
	}
	require.Equal(t, []string{"user:string", "assistant:text,tool_use", "user:tool_result", "assistant:tool_use", "user:tool_result", "assistant:text"}, shape)
	require.Equal(t, "claude-cli", entries[1].Provider)
	require.Equal(t, `{"last":"190.25"}`, entries[2].Message.Content.Blocks[0].Content)
	log, err := os.ReadFile(filepath.Join(f.dir, "tool-calls", "tool-calls.jsonl"))
	require.NoError(t, err)
	require.Equal(t, 2, strings.Count(string(log), "\n"), "CLI tool calls are logged too")
	usage, err := f.center.d.Usage.Sessions()
	require.NoError(t, err)
	require.Len(t, usage, 1, "the CLI's run is a counted turn")
	require.Equal(t, 1, usage[0].Turns)
	require.Equal(t, 1, usage[0].UnreportedTurns, "the CLI reports no tokens: unknown, not zero")

	// The second turn sends the history flattened into the prompt.
	_, err = ask(t, f.center, "telegram/1", "and now?", Options{})
	require.NoError(t, err)
	stdin, err := os.ReadFile(stdinFile)
	require.NoError(t, err)
	require.Contains(t, string(stdin), "<chat_history>")
	require.Contains(t, string(stdin), "[User] quote AAPL and tell me")
	require.Contains(t, string(stdin), "[Tool: getQuote")
	require.True(t, strings.HasSuffix(string(stdin), "</chat_history>\n\nand now?"))
}

func TestTurnsOnOneSessionAreSerialized(t *testing.T) {
	srv := newScriptedOpenAI(t, func(body map[string]any) turn {
		return turn{text: "echo: " + lastUserContent(body)}
	})
	f := newFixture(t, srv.profile())
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := ask(t, f.center, "tui/default", fmt.Sprintf("m%d", i), Options{})
			require.NoError(t, err)
		}()
	}
	wg.Wait()
	entries, err := f.sessions.Read("tui/default")
	require.NoError(t, err)
	require.Len(t, entries, 12)
	for i := 0; i < len(entries); i += 2 {
		require.Equal(t, "user", entries[i].Type)
		require.Equal(t, "echo: "+entries[i].Message.Content.Text, entries[i+1].Message.Content.PlainText(), "each reply directly follows its prompt")
	}
}

func TestMaxStepsBoundsTheToolLoop(t *testing.T) {
	srv := newScriptedOpenAI(t, func(map[string]any) turn { return turn{tool: "calculate", args: `{"expression":"1+1"}`} })
	f := newFixture(t, srv.profile())
	writeConfig(t, f.store, config.AgentFile, `{"maxSteps":3,"maxHistoryEntries":50}`)
	res, err := ask(t, f.center, "loop", "go", Options{})
	require.NoError(t, err)
	require.Equal(t, stepLimitNote, res.Text)
	require.Len(t, res.ToolCalls, 3)
	entries, _ := f.sessions.Read("loop")
	require.Len(t, entries, 1+3*2+1, "prompt, 3×(call, result), the note")
	require.Equal(t, stepLimitNote, entries[len(entries)-1].Message.Content.Text)
}

func TestDisabledAndMalformedToolCallsBecomeToolErrors(t *testing.T) {
	calls := 0
	srv := newScriptedOpenAI(t, func(map[string]any) turn {
		calls++
		switch calls {
		case 1:
			return turn{tool: "getQuote", args: `{"aliceId":"a|AAPL"}`}
		case 2:
			return turn{tool: "calculate", args: `{expression: 1+1`}
		}
		return turn{text: "ok"}
	})
	f := newFixture(t, srv.profile())
	res, err := ask(t, f.center, "d", "hi", Options{DisabledTools: []string{"getQuote"}})
	require.NoError(t, err)
	require.Equal(t, "ok", res.Text)
	for _, tool := range srv.last()["tools"].([]any) {
		require.NotEqual(t, "getQuote", tool.(map[string]any)["function"].(map[string]any)["name"], "disabled tools are not offered")
	}
	entries, _ := f.sessions.Read("d")
	r1 := entries[2].Message.Content.Blocks[0]
	require.True(t, r1.IsError)
	require.Contains(t, r1.Content, "disabled for this channel")
	r2 := entries[4].Message.Content.Blocks[0]
	require.True(t, r2.IsError)
	require.Contains(t, r2.Content, "not valid JSON")
	require.JSONEq(t, `{}`, string(entries[3].Message.Content.Blocks[0].Input), "the session keeps valid JSON")
}

func TestAutoCompactionKeepsThePromptAndMicrocompactIsPreferred(t *testing.T) {
	srv := newScriptedOpenAI(t, func(body map[string]any) turn {
		if strings.Contains(lastUserContent(body), "<conversation>") {
			return turn{text: "<summary>Earlier: user asked about AAPL.</summary>"}
		}
		return turn{text: "answer"}
	})
	f := newFixture(t, srv.profile())
	// Eight big tool results: trimming the five oldest saves > 20000 tokens.
	big := strings.Repeat("r", 20000)
	var seed []session.Entry
	for i := 0; i < 8; i++ {
		id := fmt.Sprintf("t%d", i)
		seed = append(seed,
			session.NewBlocks("assistant", []session.Block{{Type: "tool_use", ID: id, Name: "getQuote", Input: json.RawMessage(`{}`)}}, "openai"),
			session.NewBlocks("user", []session.Block{{Type: "tool_result", ToolUseID: id, Content: big}}, "openai"))
	}
	_, err := f.sessions.Append("m", seed...)
	require.NoError(t, err)
	writeConfig(t, f.store, config.CompactionFile, `{"maxContextTokens":40000,"maxOutputTokens":1000,"autoCompactBuffer":1000,"microcompactKeepRecent":3}`)
	_, err = ask(t, f.center, "m", "next question", Options{})
	require.NoError(t, err)
	all, _ := f.sessions.Read("m")
	for _, e := range all {
		require.NotEqual(t, "compact_boundary", e.Subtype, "microcompact was enough: nothing summarised")
	}
	sent, _ := json.Marshal(srv.last()["messages"])
	require.Equal(t, 5, strings.Count(string(sent), truncatedNote), "old results trimmed in the request only")
	require.Equal(t, 3, strings.Count(string(sent), big))
	raw, _ := os.ReadFile(filepath.Join(f.sessions.Dir(), "m.jsonl"))
	require.Equal(t, 8, strings.Count(string(raw), big), "the file keeps every result")

	// With small results microcompact cannot help: a summary is written and
	// the prompt follows it in the new window.
	writeConfig(t, f.store, config.CompactionFile, `{"maxContextTokens":3000,"maxOutputTokens":100,"autoCompactBuffer":100,"microcompactKeepRecent":3}`)
	for i := 0; i < 3; i++ {
		_, err = f.sessions.Append("s", session.NewText("user", strings.Repeat("q", 4000), "human"), session.NewText("assistant", "a", "openai"))
		require.NoError(t, err)
	}
	res, err := ask(t, f.center, "s", "what now?", Options{})
	require.NoError(t, err)
	require.Equal(t, "answer", res.Text)
	active, _ := f.sessions.ReadActive("s")
	require.Len(t, active, 4, "boundary, summary, prompt, reply")
	require.Equal(t, "compact_boundary", active[0].Subtype)
	require.Equal(t, "auto", active[0].CompactMetadata.Trigger)
	require.Greater(t, active[0].CompactMetadata.PreTokens, 2800)
	require.True(t, active[1].IsCompactSummary)
	require.Contains(t, active[1].Message.Content.Text, "Earlier: user asked about AAPL.")
	require.Equal(t, "what now?", active[2].Message.Content.Text)
	require.Equal(t, *active[1].ParentUUID, active[0].UUID)
	require.Equal(t, "what now?", lastUserContent(srv.last()), "the model saw the prompt after the summary")
	history, err := f.center.History("s", 0)
	require.NoError(t, err)
	require.Equal(t, "compaction", history[0].Kind, "the UI shows a compaction marker")
	require.Contains(t, history[0].Summary, "Earlier: user asked about AAPL.", "with the summary, so it stays visible after a restart")
	require.NotContains(t, history[0].Summary, "This session is being continued", "without the preface meant for the model")
	require.Equal(t, "what now?", history[1].Text, "the summary is not shown as a user message")
}

func TestToMessagesDropsOrphans(t *testing.T) {
	entries := []session.Entry{
		session.NewBlocks("user", []session.Block{{Type: "tool_result", ToolUseID: "gone", Content: "x"}}, "t"),
		session.NewText("user", "hi", "human"),
		session.NewBlocks("assistant", []session.Block{{Type: "text", Text: "calling"}, {Type: "tool_use", ID: "a", Name: "n"}, {Type: "tool_use", ID: "crashed", Name: "n"}}, "t"),
		session.NewBlocks("user", []session.Block{{Type: "tool_result", ToolUseID: "a", Content: "ok"}}, "t"),
	}
	msgs := ToMessages(entries)
	require.Len(t, msgs, 3, "the orphan result entry disappears")
	require.Equal(t, "hi", msgs[0].Text)
	require.Len(t, msgs[1].ToolCalls, 1, "the unanswered call is dropped")
	require.Equal(t, "a", msgs[1].ToolCalls[0].ID)
	require.Equal(t, "ok", msgs[2].ToolResults[0].Content)
}

func TestFlattenHistoryLimitsAndSeparatesThePrompt(t *testing.T) {
	var entries []session.Entry
	for i := 0; i < 5; i++ {
		entries = append(entries, session.NewText("user", fmt.Sprintf("q%d", i), "human"), session.NewText("assistant", fmt.Sprintf("a%d", i), "t"))
	}
	entries = append(entries, session.NewText("user", "now", "human"))
	hist, prompt := FlattenHistory(entries, 4)
	require.Equal(t, "now", prompt)
	require.Equal(t, "<chat_history>\n"+historyPreamble+"\n\n[User] q3\n[Bot] a3\n[User] q4\n[Bot] a4\n</chat_history>", hist)
	hist, prompt = FlattenHistory(entries[len(entries)-1:], 4)
	require.Empty(t, hist)
	require.Equal(t, "now", prompt)
}

func TestToolLogContinuesItsSequence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tool-calls", "tool-calls.jsonl")
	l := NewToolLog(path)
	require.NoError(t, l.Append(ToolCallRecord{ID: "1", Name: "a", Status: "ok"}))
	require.NoError(t, l.Append(ToolCallRecord{ID: "2", Name: "b", Output: strings.Repeat("o", 5000), Status: "error"}))
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	_, _ = f.WriteString(`{"seq":99,"id":"torn`)
	f.Close()
	l2 := NewToolLog(path) // a restart
	require.NoError(t, l2.Append(ToolCallRecord{ID: "3", Name: "c", Status: "ok"}))
	raw, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	var last, second ToolCallRecord
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1][strings.Index(lines[len(lines)-1], `{"seq":3`):]), &last))
	require.Equal(t, int64(3), last.Seq, "seq continues after a restart, ignoring the torn line")
	require.JSONEq(t, `{}`, string(last.Input))
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &second))
	require.Less(t, len(second.Output), 4100, "outputs are capped")
}

func TestPersonaFileFallsBackToDefault(t *testing.T) {
	p := filepath.Join(t.TempDir(), "persona.md")
	get := PersonaFile(p)
	require.Equal(t, DefaultPersona, get())
	require.Contains(t, DefaultPersona, "stage → commit → push")
	require.NoError(t, os.WriteFile(p, []byte("You are Bob."), 0o600))
	require.Equal(t, "You are Bob.", get(), "edits apply to the next request")
}

func TestCancelDuringToolExecutionPersistsTheStep(t *testing.T) {
	srv := newScriptedOpenAI(t, func(map[string]any) turn { return turn{text: "working", tool: "slow", args: `{}`} })
	f := newFixture(t, srv.profile())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	f.center.d.Tools.Register(slowTool(started))
	s, err := f.center.AskWithSession(ctx, "go", "c", Options{})
	require.NoError(t, err)
	<-started
	cancel()
	_, err = s.Wait()
	require.ErrorIs(t, err, context.Canceled)
	entries, _ := f.sessions.Read("c")
	require.Len(t, entries, 3, "prompt, the call, its (cancelled) result")
	require.True(t, entries[2].Message.Content.Blocks[0].IsError)
	srv.mu.Lock()
	defer srv.mu.Unlock()
	require.Len(t, srv.bodies, 1, "no model turn after the cancel")
}

// slowTool signals started and then blocks until its context ends.
func slowTool(started chan struct{}) core.Tool {
	return core.Tool{Name: "slow", Description: "waits", InputSchema: core.Schema(`{"type":"object","properties":{}}`),
		Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		}}
}

func TestHugeToolOutputIsCapped(t *testing.T) {
	calls := 0
	srv := newScriptedOpenAI(t, func(map[string]any) turn {
		if calls++; calls == 1 {
			return turn{tool: "huge", args: `{}`}
		}
		return turn{text: "ok"}
	})
	f := newFixture(t, srv.profile())
	f.center.d.Tools.Register(core.Tool{Name: "huge", Description: "big", InputSchema: core.Schema(`{"type":"object","properties":{}}`),
		Handler: func(context.Context, json.RawMessage) (any, error) { return strings.Repeat("é", 80_000), nil }})
	_, err := ask(t, f.center, "h", "go", Options{})
	require.NoError(t, err)
	entries, _ := f.sessions.Read("h")
	out := entries[2].Message.Content.Blocks[0].Content
	require.Less(t, len(out), maxToolOutput+200)
	require.Contains(t, out, "[output truncated: 160000 bytes in total")
	require.True(t, utf8.ValidString(out), "cut on a rune boundary")
}

func TestCancelWhileQueuedLeavesNoTrace(t *testing.T) {
	srv := newScriptedOpenAI(t, func(map[string]any) turn { return turn{tool: "slow", args: `{}`} })
	f := newFixture(t, srv.profile())
	started := make(chan struct{})
	f.center.d.Tools.Register(slowTool(started))
	ctx1, cancel1 := context.WithCancel(context.Background())
	defer cancel1()
	first, err := f.center.AskWithSession(ctx1, "first", "q", Options{})
	require.NoError(t, err)
	<-started
	ctx2, cancel2 := context.WithCancel(context.Background())
	second, err := f.center.AskWithSession(ctx2, "second", "q", Options{})
	require.NoError(t, err)
	cancel2()
	_, err = second.Wait()
	require.ErrorIs(t, err, context.Canceled)
	cancel1()
	_, err = first.Wait()
	require.ErrorIs(t, err, context.Canceled)
	entries, _ := f.sessions.Read("q")
	for _, e := range entries {
		require.NotEqual(t, "second", e.Message.Content.Text, "a turn cancelled in the queue saves nothing")
	}
}
