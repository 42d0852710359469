package mcp

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

func newAskFixture(t *testing.T, l Listen) (*Server, *fakeAsker) {
	t.Helper()
	fa := newFakeAsker()
	if l.Host == "" {
		l.Host = "127.0.0.1"
	}
	srv := NewAsk(AskOptions{Listen: l, Asker: fa, Sessions: fa, Recorder: fa, Logger: quietLogger(), Version: "test"})
	startServer(t, srv)
	return srv, fa
}

func TestAskConversationPersistsPerSession(t *testing.T) {
	srv, fa := newAskFixture(t, Listen{})
	c := connect(t, srv.URL(), nil)
	assert.ElementsMatch(t, []string{"askWithSession", "listSessions", "getSessionHistory"}, toolNames(t, c))

	var reply struct{ Text, SessionID string }
	res := callTool(t, c, "askWithSession", map[string]any{"message": "BTC outlook?", "sessionId": "daily-review"})
	require.False(t, res.IsError, resultText(res))
	require.NoError(t, json.Unmarshal([]byte(resultText(res)), &reply))
	assert.Equal(t, "turn 1: BTC outlook?", reply.Text)
	assert.Equal(t, "daily-review", reply.SessionID, "the caller's id comes back, not the storage id")

	res = callTool(t, c, "askWithSession", map[string]any{"message": "and ETH?", "sessionId": "daily-review"})
	require.NoError(t, json.Unmarshal([]byte(resultText(res)), &reply))
	assert.Equal(t, "turn 2: and ETH?", reply.Text, "second call resumes the same session")
	callTool(t, c, "askWithSession", map[string]any{"message": "hi", "sessionId": "risk-check"})

	// Storage ids carry the connector prefix; interactions are recorded.
	sessions, touched := fa.snapshot()
	assert.Contains(t, sessions, "mcp-ask__daily-review")
	assert.Contains(t, touched, "mcp-ask:mcp-ask__daily-review")

	res = callTool(t, c, "listSessions", nil)
	assert.JSONEq(t, `{"sessions":[{"sessionId":"daily-review"},{"sessionId":"risk-check"}]}`, resultText(res))
	// Paging: a page of one, then the rest from its cursor.
	res = callTool(t, c, "listSessions", map[string]any{"limit": 1})
	assert.JSONEq(t, `{"sessions":[{"sessionId":"daily-review"}],"nextCursor":"daily-review"}`, resultText(res))
	res = callTool(t, c, "listSessions", map[string]any{"limit": 1, "cursor": "daily-review"})
	assert.JSONEq(t, `{"sessions":[{"sessionId":"risk-check"}]}`, resultText(res))
	res = callTool(t, c, "listSessions", map[string]any{"limit": 0})
	assert.True(t, res.IsError, "limit 0 is a tool error")

	res = callTool(t, c, "getSessionHistory", map[string]any{"sessionId": "daily-review"})
	var hist struct{ Messages []Message }
	require.NoError(t, json.Unmarshal([]byte(resultText(res)), &hist))
	require.Len(t, hist.Messages, 4)
	assert.Equal(t, Message{"user", "BTC outlook?"}, hist.Messages[0])

	res = callTool(t, c, "getSessionHistory", map[string]any{"sessionId": "daily-review", "limit": 1})
	require.NoError(t, json.Unmarshal([]byte(resultText(res)), &hist))
	assert.Equal(t, []Message{{"assistant", "turn 2: and ETH?"}}, hist.Messages)

	res = callTool(t, c, "getSessionHistory", map[string]any{"sessionId": "never-used"})
	assert.JSONEq(t, `{"messages":[]}`, resultText(res))
}

func TestAskRefusesEscapingSessionIDs(t *testing.T) {
	srv, fa := newAskFixture(t, Listen{})
	c := connect(t, srv.URL(), nil)
	bad := []string{"../etc/passwd", "a/b", `a\b`, "..", "x..y", "nul\x00byte", "tab\tid", "", strings.Repeat("a", 129)}
	for _, id := range bad {
		for _, tool := range []string{"askWithSession", "getSessionHistory"} {
			res := callTool(t, c, tool, map[string]any{"message": "hi", "sessionId": id})
			if tool == "getSessionHistory" {
				res = callTool(t, c, tool, map[string]any{"sessionId": id})
			}
			assert.True(t, res.IsError, "%s(%q) must be refused", tool, id)
			assert.Contains(t, resultText(res), "invalid sessionId")
		}
	}
	sessions, _ := fa.snapshot()
	assert.Empty(t, sessions, "nothing reached the agent")
	ok := strings.Repeat("a", 128)
	assert.False(t, callTool(t, c, "askWithSession", map[string]any{"message": "hi", "sessionId": ok}).IsError)
}

func TestAskSessionIDTable(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"daily-review", "mcp-ask__daily-review", true},
		{"user 123", "mcp-ask__user 123", true},
		{"6f1c0e4a-uuid", "mcp-ask__6f1c0e4a-uuid", true},
		{"sub/dir", "", false},
		{"..", "", false},
		{"bell\a", "", false},
		{"\xff", "", false},
		{".", "", false},
		{" ", "", false},
		{"-_ .", "", false},
		{"é", "mcp-ask__é", true},
	}
	for _, tt := range tests {
		got, err := AskSessionID(tt.in)
		if tt.ok {
			require.NoError(t, err, tt.in)
			assert.Equal(t, tt.want, got)
		} else {
			require.ErrorIs(t, err, ErrBadSessionID, tt.in)
		}
	}
}

func TestAskBadArgumentsAndAgentErrors(t *testing.T) {
	srv, fa := newAskFixture(t, Listen{})
	c := connect(t, srv.URL(), nil)
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"askWithSession", map[string]any{"sessionId": "s"}, "message must not be empty"},
		{"askWithSession", map[string]any{"message": 3, "sessionId": "s"}, `"message" must be string`},
		{"askWithSession", map[string]any{"message": "x", "sessionId": "s", "extra": 1}, "unknown parameter"},
		{"getSessionHistory", map[string]any{"sessionId": "s", "limit": 0}, "limit must be between 1 and 1000"},
		{"getSessionHistory", map[string]any{"sessionId": "s", "limit": "abc"}, `"limit" must be int`},
	}
	for _, tt := range tests {
		res := callTool(t, c, tt.tool, tt.args)
		assert.True(t, res.IsError, "%s %v", tt.tool, tt.args)
		assert.Contains(t, resultText(res), tt.want)
	}
	// A numeric-string limit is coerced like the reference does.
	assert.False(t, callTool(t, c, "getSessionHistory", map[string]any{"sessionId": "s", "limit": "5"}).IsError)

	fa.setFail(errors.New("no AI provider configured"))
	res := callTool(t, c, "askWithSession", map[string]any{"message": "x", "sessionId": "s"})
	assert.True(t, res.IsError)
	assert.Equal(t, "Error: no AI provider configured", resultText(res))
}

func TestAskListenerIsProtectedLikeMain(t *testing.T) {
	srv, _ := newAskFixture(t, Listen{Token: "ask-token"})
	assert.Equal(t, 401, post(t, srv.URL(), initBody, nil).StatusCode)
	assert.Equal(t, 403, post(t, srv.URL(), initBody, map[string]string{"Authorization": "Bearer ask-token", "Host": "evil.test"}).StatusCode)
	c := connect(t, srv.URL(), map[string]string{"Authorization": "Bearer ask-token"})
	assert.Contains(t, toolNames(t, c), "askWithSession")
}

// TestAskPortZeroPicksAFreePort: connectors.json's mcpAsk.port 0 means any
// free port, as mcp.json's port does (README, the Settings form); only
// "enabled": false turns the connector off.
func TestAskPortZeroPicksAFreePort(t *testing.T) {
	assert.True(t, AskEnabled(config.MCPAsk{Enabled: true, Port: 0}))
	assert.True(t, AskEnabled(config.MCPAsk{Enabled: true, Port: 3003}))
	assert.False(t, AskEnabled(config.MCPAsk{Enabled: false, Port: 3003}))
	srv, _ := newAskFixture(t, ListenFromAsk(config.MCPAsk{Enabled: true, Host: "127.0.0.1", Port: 0}, config.DefaultMCP()))
	assert.NotContains(t, srv.URL(), ":0/", "bound to a real port: %s", srv.URL())
	c := connect(t, srv.URL(), nil)
	assert.Contains(t, toolNames(t, c), "askWithSession")
}
