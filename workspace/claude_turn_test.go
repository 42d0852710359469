package workspace

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/alice-trading/alice/workspace/agentstate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// anthropicStub answers Claude Code's streaming /v1/messages with one
// short text reply, after a pause long enough to see it working.
func anthropicStub(t *testing.T, pause time.Duration) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
			http.NotFound(w, r)
			return
		}
		var body struct {
			Model string `json:"model"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		w.Header().Set("Content-Type", "text/event-stream")
		fl, _ := w.(http.Flusher)
		ev := func(typ string, data map[string]any) {
			data["type"] = typ
			b, _ := json.Marshal(data)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
			if fl != nil {
				fl.Flush()
			}
		}
		usage := map[string]any{"input_tokens": 1, "output_tokens": 1}
		ev("message_start", map[string]any{"message": map[string]any{"id": "msg_1", "type": "message", "role": "assistant",
			"model": body.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
		ev("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		select {
		case <-time.After(pause):
		case <-r.Context().Done():
			return
		}
		ev("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "text_delta", "text": "hello from the stub"}})
		ev("content_block_stop", map[string]any{"index": 0})
		ev("message_delta", map[string]any{"delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
		ev("message_stop", map[string]any{})
	}))
}

// TestRealClaudeTurnWorksThenDone runs the installed claude CLI against a
// local Anthropic-compatible stub (pre-seeded onboarding, a dummy key): a
// prompt sent without attaching makes it work (spinner title) and then
// finish (done), read purely from what it writes to its terminal.
func TestRealClaudeTurnWorksThenDone(t *testing.T) {
	t.Parallel()
	bin := os.Getenv("ALICE_CLAUDE_BIN")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("claude"); err != nil {
			t.Skip("claude CLI not installed (npm i @anthropic-ai/claude-code; or set ALICE_CLAUDE_BIN)")
		}
	}
	api := anthropicStub(t, 1500*time.Millisecond)
	defer api.Close()
	home := t.TempDir()
	m := newTestManager(t, t.TempDir(), func(o *Options) {
		o.ClaudeCommand = []string{bin}
		o.ExtraEnv = append(o.ExtraEnv, "HOME="+home, "CLAUDE_CONFIG_DIR="+home+"/.claude", "DISABLE_AUTOUPDATER=1",
			"ANTHROPIC_API_KEY=sk-dummy", "ANTHROPIC_BASE_URL="+api.URL)
	})
	w := createWS(t, m, "claude-turn", "chat")
	seed, _ := json.Marshal(map[string]any{"hasCompletedOnboarding": true,
		"customApiKeyResponses": map[string]any{"approved": []string{"sk-dummy"}, "rejected": []string{}},
		"projects":              map[string]any{w.Dir: map[string]any{"hasTrustDialogAccepted": true}}})
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".claude"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".claude", ".claude.json"), seed, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".claude.json"), seed, 0o600))

	var log stateLog
	m.OnAgentState(log.add)
	s, err := m.StartSession(w.ID, AgentClaude)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		st, _ := m.AgentStatus(s.ID())
		return st.State == agentstate.Idle && st.Title != ""
	}, 60*time.Second, 50*time.Millisecond, "claude never reached its prompt; screen:\n%s", s.Screen())
	require.NoError(t, m.Send(s.ID(), "say hi", true))
	if !assert.Eventually(t, func() bool { st, _ := m.AgentStatus(s.ID()); return st.State == agentstate.Working }, 30*time.Second, 20*time.Millisecond) {
		r := s.Replay()
		t.Fatalf("never working; replay tail %q", r[max(0, len(r)-3000):])
	}
	require.Eventually(t, func() bool {
		st, _ := m.AgentStatus(s.ID())
		return st.State == agentstate.Done
	}, 60*time.Second, 50*time.Millisecond, "turn never finished; screen:\n%s", s.Screen())
	waitScreen(t, s, "hello from the stub")
	t.Logf("transitions %v", log.states())
	assert.Equal(t, []agentstate.State{agentstate.Working, agentstate.Done}, dedupe(log.states())[len(dedupe(log.states()))-2:])
}
