package workspace

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/require"
)

// TestRealClaudeSeesGeneratedMCPServers runs the real claude CLI (when it is
// installed; set ALICE_CLAUDE_BIN to point at one) in a freshly created
// workspace and checks that `claude mcp list` connects to both servers in
// the generated .mcp.json without any approval prompt. A stand-in MCP
// server serves /mcp and /mcp/{wsId}.
func TestRealClaudeSeesGeneratedMCPServers(t *testing.T) {
	t.Parallel()
	bin := os.Getenv("ALICE_CLAUDE_BIN")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("claude"); err != nil {
			t.Skip("claude CLI not installed (npm i @anthropic-ai/claude-code; or set ALICE_CLAUDE_BIN)")
		}
	}
	mux := http.NewServeMux()
	for _, p := range []string{"/mcp", "/mcp/{wsId}"} {
		s := server.NewMCPServer("alice-test", "0.0.1", server.WithToolCapabilities(false))
		s.AddTool(mcp.NewTool("ping"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("pong"), nil
		})
		mux.Handle(p, server.NewStreamableHTTPServer(s, server.WithStateLess(true)))
	}
	ts := httptest.NewServer(mux)
	defer ts.Close()

	m := newTestManager(t, t.TempDir(), func(o *Options) { o.MCPURL = func() string { return ts.URL + "/mcp" } })
	w := createWS(t, m, "claude-check", "chat")

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "mcp", "list")
	cmd.Dir = w.Dir
	home := t.TempDir() // never touch the real ~/.claude
	cmd.Env = append(m.sessionEnv(w), "HOME="+home, "CLAUDE_CONFIG_DIR="+home+"/.claude", "DISABLE_AUTOUPDATER=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	t.Logf("claude mcp list:\n%s", out)
	require.Regexp(t, regexp.MustCompile(`(?m)^alice: `+regexp.QuoteMeta(ts.URL)+`/mcp \(HTTP\) - .*Connected`), string(out))
	require.Regexp(t, regexp.MustCompile(`(?m)^alice-workspace: `+regexp.QuoteMeta(ts.URL+"/mcp/"+w.ID)+` \(HTTP\) - .*Connected`), string(out))
}
