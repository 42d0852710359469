package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/workspace"
)

// TestWorkspaceSendThroughTheRunningInstance: `alice workspace send` types
// into a live session of the running alice, with Enter or as a draft.
func TestWorkspaceSendThroughTheRunningInstance(t *testing.T) {
	home := workspaceHome(t, `{"port":0,"token":"s3cret"}`)
	a := startInstance(t, home)
	ctx := t.Context()

	_, errs, code := alice(t, "workspace", "send", "--home", home, "nowhere", "echo x")
	require.Equal(t, 1, code)
	require.Contains(t, errs, "workspace not found")

	w, err := a.Workspaces().Create(ctx, "cli-send", "shell-only", nil)
	require.NoError(t, err)
	_, errs, code = alice(t, "workspace", "send", "--home", home, "cli-send", "echo x")
	require.Equal(t, 1, code)
	require.Contains(t, errs, "no live session")

	s, err := a.Workspaces().StartSession(w.ID, workspace.AgentShell)
	require.NoError(t, err)
	require.True(t, a.Workspaces().WaitReady(ctx, s.ID(), 30*time.Second))

	out, errs, code := alice(t, "workspace", "send", "--home", home, "cli-send", "echo", "cli-$((40+2))", ">", "cli.txt")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "sent to cli-send")
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(filepath.Join(w.Dir, "cli.txt"))
		return err == nil && string(b) == "cli-42\n"
	}, 30*time.Second, 20*time.Millisecond, "screen:\n%s", s.Screen())

	out, errs, code = alice(t, "workspace", "send", "--home", home, "--draft", "--session", s.Name(), w.ID, "echo drafted > draft.txt")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "not submitted")
	require.Eventually(t, func() bool { return strings.Contains(s.Screen(), "echo drafted > draft.txt") }, 30*time.Second, 20*time.Millisecond)
	time.Sleep(300 * time.Millisecond)
	require.NoFileExists(t, filepath.Join(w.Dir, "draft.txt"), "a draft is not run")

	out, _, code = alice(t, "workspace", "ls", "--home", home)
	require.Equal(t, 0, code)
	require.Regexp(t, `cli-send\s+shell-only\s+. sh1 (idle|done|working)`, out, "ls shows each session's agent state")

	_, errs, code = alice(t, "workspace", "send", "--home", home, "--session", "sh9", "cli-send", "x")
	require.Equal(t, 1, code)
	require.Contains(t, errs, "sh9")
	_, errs, code = alice(t, "workspace", "send", "--home", home, "cli-send")
	require.Equal(t, 1, code)
	require.Contains(t, errs, "want ID|TAG and the text")
}
