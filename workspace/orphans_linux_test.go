package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

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

// readPIDFile waits for path to hold a pid; the process is killed when the
// test ends, whatever happened.
func readPIDFile(t *testing.T, path string) int {
	t.Helper()
	pid := 0
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && pid > 0
	}, waitFor, tick, "no pid in %s", path)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	return pid
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
				"double-forked daemon": readPIDFile(t, filepath.Join(dir, "daemon.pid")),
				"setsid child":         readPIDFile(t, filepath.Join(dir, "child.pid")),
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
	requireGone(t, "headless run", map[string]int{"daemon": readPIDFile(t, pidFile)})
}
