package workspace

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestRunHeadlessCapturesOutputFilesAndFailures(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	ws := createWS(t, m, "batch", "shell-only")
	require.NoError(t, os.WriteFile(filepath.Join(ws.Dir, "before.txt"), []byte("x"), 0o644))

	res, err := m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: ws.ID, Agent: AgentShell, Prompt: "echo out; echo err >&2; printf 'a\\n' > new.txt"})
	require.NoError(t, err)
	require.Equal(t, 0, res.ExitCode)
	require.Contains(t, res.Output, "out")
	require.Contains(t, res.Output, "err")
	require.Len(t, res.Files, 1, "only what this run changed (before.txt was there already)")
	require.Equal(t, "new.txt", res.Files[0].Path)

	res, err = m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: ws.ID, Agent: AgentShell, Prompt: "echo 'no such ticker' >&2; exit 3"})
	require.ErrorIs(t, err, ErrHeadlessFailed)
	require.ErrorContains(t, err, "sh -c exited 3: no such ticker")
	require.Equal(t, 3, res.ExitCode)

	// The time limit kills the whole process group (the sleeping child too).
	// It leaves the shell ample time to start the child and write its pid
	// first (with 300 ms a loaded machine could kill it before that, and
	// there was no child.pid to check).
	start := time.Now()
	res, err = m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: ws.ID, Agent: AgentShell, Prompt: "sleep 30 & echo $! > child.pid; wait", Timeout: 2 * time.Second})
	require.ErrorContains(t, err, "did not finish within 2s")
	require.True(t, res.TimedOut)
	require.Less(t, time.Since(start), 10*time.Second)
	b, rerr := os.ReadFile(filepath.Join(ws.Dir, "child.pid"))
	require.NoError(t, rerr)
	pid := 0
	for _, c := range string(b) {
		if c >= '0' && c <= '9' {
			pid = pid*10 + int(c-'0')
		}
	}
	require.Eventually(t, func() bool { return !alive(pid) }, waitFor, tick, "the child was killed with its group")

	_, err = m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: "nope", Agent: AgentShell, Prompt: "true"})
	require.True(t, errors.Is(err, ErrWorkspaceNotFound))
	_, err = m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: ws.ID, Agent: AgentShell, Prompt: "  "})
	require.ErrorContains(t, err, "empty prompt")
}

func TestReplyText(t *testing.T) {
	cases := []struct {
		name          string
		before, after []string
		prompt, want  string
	}{
		{"shell echo", []string{"$"}, []string{"$ echo hi", "hi", "$"}, "echo hi", "hi"},
		{"multi-line reply", []string{"> "}, []string{"> what now?", "Buy less.", "Sell more.", "> "}, "what now?", "Buy less.\nSell more."},
		{"prompt not echoed", []string{"ready"}, []string{"ready", "answer 1"}, "secret", "answer 1"},
		{"nothing new", []string{"$"}, []string{"$ true", "$"}, "true", ""},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, replyText(tc.before, tc.after, tc.prompt), tc.name)
	}
}

// A run that commits its own work reports the files it committed (the
// diff base alone would show none: black-box, "0 file(s) changed").
func TestRunHeadlessReportsWhatItCommitted(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git CLI not installed")
	}
	m := newTestManager(t, t.TempDir(), nil)
	ws := createWS(t, m, "commits", "shell-only")
	res, err := m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: ws.ID, Agent: AgentShell,
		Prompt: "printf 'a\\n' > one.txt; printf 'b\\n' > two.txt; git add one.txt two.txt && git -c user.name=a -c user.email=a@x commit -qm work"})
	require.NoError(t, err, res.Output)
	var paths []string
	for _, f := range res.Files {
		paths = append(paths, f.Path)
	}
	require.ElementsMatch(t, []string{"one.txt", "two.txt"}, paths)
}
