package wsapi

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/workspace"
)

func newService(t *testing.T) Service {
	t.Helper()
	m, err := workspace.NewManager(workspace.Options{Root: t.TempDir(), ShellCommand: []string{"/bin/sh"},
		ExtraEnv: []string{"PS1=$ ", "ENV="}, Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	return Service{M: m, MCPURL: func() string { return "http://127.0.0.1:4567/mcp/" }}
}

// TestClientAgainstHandler drives every route through a real HTTP client.
func TestClientAgainstHandler(t *testing.T) {
	svc := newService(t)
	srv := httptest.NewServer(Handler(svc))
	defer srv.Close()
	c := NewClient(srv.URL+"/mcp", "")
	ctx := context.Background()

	in, err := c.Create(ctx, "research-aapl", "shell-only")
	require.NoError(t, err)
	require.Equal(t, "http://127.0.0.1:4567/mcp", in.MCPURL)
	require.Equal(t, "http://127.0.0.1:4567/mcp/"+in.ID, in.WorkspaceMCPURL)
	require.FileExists(t, filepath.Join(in.Dir, ".mcp.json"))
	_, ok := svc.M.Lookup(in.ID)
	require.True(t, ok, "the instance's own manager knows it")

	_, err = c.Create(ctx, "research-aapl", "")
	require.ErrorContains(t, err, "HTTP 409")
	_, err = c.Create(ctx, "Bad Tag!", "")
	require.ErrorContains(t, err, "HTTP 400")
	_, err = c.Create(ctx, "x", "no-such-template")
	require.Error(t, err)

	list, err := c.List(ctx)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, "research-aapl", list[0].Tag)

	// send: no live session yet → 404; with one, the text is typed and run.
	require.ErrorContains(t, c.Send(ctx, in.ID, SendRequest{Text: "echo hi"}), "HTTP 404")
	s, err := svc.M.StartSession(in.ID, "")
	require.NoError(t, err)
	require.NoError(t, c.Send(ctx, "research-aapl", SendRequest{Text: "echo sent-$((40+2))"}))
	require.Eventually(t, func() bool { return strings.Contains(s.Screen(), "sent-42") }, 30*time.Second, 20*time.Millisecond)
	require.NoError(t, c.Send(ctx, in.ID, SendRequest{Session: s.Name(), Text: "draft-only", Draft: true}))
	require.Eventually(t, func() bool { return strings.Contains(s.Screen(), "draft-only") }, 30*time.Second, 20*time.Millisecond)
	require.NotContains(t, s.Screen(), "draft-only: not found", "a draft is not submitted")

	list, _ = c.List(ctx)
	require.Len(t, list[0].Sessions, 1)
	pid := s.PID()
	require.NoError(t, c.Remove(ctx, in.ID, false))
	require.DirExists(t, in.Dir, "the directory is kept by default")
	require.Eventually(t, func() bool { return pid == 0 || !procAlive(pid) }, 30*time.Second, 20*time.Millisecond, "session process ended")
	require.ErrorContains(t, c.Remove(ctx, in.ID, false), "HTTP 404")

	in2, err := c.Create(ctx, "scratch", "")
	require.NoError(t, err)
	require.NoError(t, c.Remove(ctx, "scratch", true))
	require.NoDirExists(t, in2.Dir)
}

func procAlive(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}
