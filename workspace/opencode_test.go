package workspace

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// opencode is started with alice's two MCP servers in
// OPENCODE_CONFIG_CONTENT (opencode merges it over the user's config) and
// resumed with --continue.
func TestOpenCodeCommandLine(t *testing.T) {
	m := newTestManager(t, t.TempDir(), func(o *Options) { o.OpenCodeCommand = []string{"true", "--pure"} })
	w := Workspace{ID: "ws-1", Dir: "/tmp/ws"}
	for _, resume := range []bool{false, true} {
		l, err := m.commandFor(AgentOpenCode, w, &ResumeHint{Kind: "last"}, resume)
		require.NoError(t, err)
		want := []string{"--pure"}
		if resume {
			want = append(want, "--continue")
		}
		require.Equal(t, want, l.args)
		var cfg string
		for _, kv := range l.env {
			if v, ok := strings.CutPrefix(kv, "OPENCODE_CONFIG_CONTENT="); ok {
				cfg = v
			}
		}
		var parsed struct {
			MCP map[string]struct {
				Type    string `json:"type"`
				URL     string `json:"url"`
				Enabled bool   `json:"enabled"`
			} `json:"mcp"`
		}
		require.NoError(t, json.Unmarshal([]byte(cfg), &parsed), cfg)
		require.Equal(t, "http://127.0.0.1:4567/mcp", parsed.MCP["alice"].URL)
		require.Equal(t, "http://127.0.0.1:4567/mcp/ws-1", parsed.MCP["alice-workspace"].URL)
		require.Equal(t, "remote", parsed.MCP["alice"].Type)
		require.True(t, parsed.MCP["alice-workspace"].Enabled)
	}
	require.True(t, AgentOpenCode.Valid())
	require.Equal(t, "o", AgentOpenCode.prefix())
	require.Contains(t, Agents(), AgentOpenCode)
}
