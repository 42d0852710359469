package script

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/agent"
)

func TestDelegateScript(t *testing.T) {
	msgs := func(last string) []message {
		m := []message{{Role: "user", Content: "delegate hello: echo hi > out.txt"}}
		if last != "" {
			a := message{Role: "assistant"}
			a.ToolCalls = append(a.ToolCalls, struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			}{})
			a.ToolCalls[0].Function.Name = last
			m = append(m, a, message{Role: "tool", Content: `{"files":[{"path":"out.txt"}]}`})
		}
		return m
	}
	for _, step := range []struct{ prev, next, args string }{
		{"", "workspaceCreate", `"tag":"hello"`},
		{"workspaceCreate", "workspaceStartAgent", `"prompt":"echo hi \u003e out.txt"`},
		{"workspaceStartAgent", "workspaceStatus", `"workspaceId":"hello"`},
		{"workspaceStatus", "workspaceDiff", `"workspaceId":"hello"`},
	} {
		r := decide(msgs(step.prev))
		require.Equal(t, step.next, r.toolName, step.prev)
		require.Contains(t, r.toolArgs, step.args)
	}
	final := decide(msgs("workspaceDiff"))
	require.Empty(t, final.toolName)
	require.Contains(t, final.text, "out.txt")
}

// TestAliceDelegatesFromTheChat: the scripted model makes Alice create a
// workspace, run a command in a shell there, read its screen and report
// the diff — through the same agent pipeline the chat pane uses.
func TestAliceDelegatesFromTheChat(t *testing.T) {
	llm := httptest.NewServer(Handler())
	t.Cleanup(llm.Close) // after the app has shut down
	a := apptest.Start(t, map[string]string{
		config.AIProviderFile: `{"activeProfile":"mock","profiles":{"mock":{"backend":"openai","model":"mock","baseUrl":"` + llm.URL + `/v1"}}}`,
	})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()

	s, err := a.Chat().AskWithSession(ctx, "delegate hello: echo hi > out.txt", "tui-delegate", agent.Options{Channel: "tui"})
	require.NoError(t, err)
	res, err := s.Wait()
	require.NoError(t, err)
	t.Logf("Alice: %s", res.Text)
	ws, ok := a.Workspaces().Get("hello")
	require.True(t, ok, "workspace created")
	// The shell runs the command on its own time: wait for it (a model
	// would poll workspaceStatus), then ask for the report.
	out := filepath.Join(ws.Dir, "out.txt")
	require.Eventually(t, func() bool { b, err := os.ReadFile(out); return err == nil && string(b) == "hi\n" },
		30*time.Second, 20*time.Millisecond, "the delegated command wrote out.txt")
	r, err := a.Chat().AskWithSession(ctx, "report hello", "tui-delegate", agent.Options{Channel: "tui"})
	require.NoError(t, err)
	rep, err := r.Wait()
	require.NoError(t, err)
	assert.True(t, strings.Contains(rep.Text, `"path":"out.txt"`), "the report quotes the diff: %s", rep.Text)
	sessions := a.Workspaces().Sessions(ws.ID)
	require.Len(t, sessions, 1)
	assert.Contains(t, sessions[0].Screen(), "echo hi > out.txt")
}
