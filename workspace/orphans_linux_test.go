package workspace

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/alice-trading/alice/core/proctree/proctreetest"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// detachScript starts two processes that leave the session's process
// group and terminal session (setsid), as codex's app-server daemon does:
// a daemon whose parent exits at once (a double fork), found by the tag it
// inherits, and a child that also drops its environment (env -i), found
// below the shell (setsid -w stays its parent). Their pids go to
// daemon.pid and child.pid in dir.
func detachScript(dir string) string {
	return "sh -c 'setsid sh -c \"sleep 300 & echo \\$! > " + filepath.Join(dir, "daemon.pid") + "\" &'; " +
		"setsid -w sh -c 'echo $$ > " + filepath.Join(dir, "child.pid") + "; exec env -i sleep 301' &\n"
}

// requireGone waits (bounded) for each pid to be gone or a zombie.
func requireGone(t *testing.T, what string, pids map[string]int) {
	t.Helper()
	for name, pid := range pids {
		require.Eventually(t, func() bool { return !alive(pid) }, waitFor, tick,
			"%s: the %s (pid %d) outlived it", what, name, pid)
	}
}

// TestDetachedProcessesDieWithTheSession: what a session's shell started
// goes when the session is killed from the UI (Stop) or alice shuts its
// sessions down (Manager.Close), even after setsid and a double fork.
func TestDetachedProcessesDieWithTheSession(t *testing.T) {
	for _, end := range []string{"stop", "close"} {
		t.Run(end, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			m := newTestManager(t, filepath.Join(dir, "root"), nil)
			w := createWS(t, m, "detach-"+end, "shell-only")
			s, err := m.StartSession(w.ID, AgentShell)
			require.NoError(t, err)
			waitState(t, s, StateRunning)
			_, err = s.Write([]byte(detachScript(dir)))
			require.NoError(t, err)
			pids := map[string]int{
				"double-forked daemon": proctreetest.ReadPIDFile(t, filepath.Join(dir, "daemon.pid")),
				"setsid child":         proctreetest.ReadPIDFile(t, filepath.Join(dir, "child.pid")),
			}
			for name, pid := range pids {
				require.True(t, alive(pid), "the %s is running", name)
				sid, err := unix.Getsid(pid)
				require.NoError(t, err)
				require.NotEqual(t, s.PID(), sid, "the %s left the session's terminal session", name)
			}
			switch end {
			case "stop":
				s.Stop()
			case "close":
				require.NoError(t, m.Close())
			}
			requireGone(t, end, pids)
		})
	}
}

// TestDetachedProcessesDieWithTheHeadlessRun: a one-shot run's daemon does
// not outlive the run.
func TestDetachedProcessesDieWithTheHeadlessRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	m := newTestManager(t, filepath.Join(dir, "root"), nil)
	w := createWS(t, m, "detach-run", "shell-only")
	pidFile := filepath.Join(dir, "daemon.pid")
	// Like a real daemon it lets go of the run's output pipe.
	prompt := "setsid sh -c 'sleep 300 & echo $! > " + pidFile + "' </dev/null >/dev/null 2>&1 & wait; while [ ! -s " + pidFile + " ]; do sleep 0.01; done"
	_, err := m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: w.ID, Agent: AgentShell, Prompt: prompt, Timeout: time.Minute})
	require.NoError(t, err)
	requireGone(t, "headless run", map[string]int{"daemon": proctreetest.ReadPIDFile(t, pidFile)})
}
