package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/core/eventlog"
	"github.com/alice-trading/alice/workspace/wsapi"
)

// TestWorkspaceRunThroughTheQueue: `alice workspace run` with alice running
// queues a manual task targeting the workspace; the one-shot's file lands
// in the workspace and the outcome is in the event log. A failing command
// exits 1 with its recorded error; --dialog continues a shell session.
func TestWorkspaceRunThroughTheQueue(t *testing.T) {
	home := workspaceHome(t, `{"port":0}`)
	a := startInstance(t, home)
	_, errs, code := alice(t, "workspace", "new", "--home", home, "--template", "shell-only", "jobs")
	require.Equal(t, 0, code, errs)
	w, _ := a.Workspaces().Get("jobs")

	out, errs, code := alice(t, "workspace", "run", "--home", home, "--agent", "shell", "--timeout", "60", "--json", "jobs", "echo 42 > answer.txt")
	require.Equal(t, 0, code, errs)
	var res wsapi.RunResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.NotEmpty(t, res.TaskID, "queued as a task")
	require.Contains(t, res.Summary, "1 file(s) changed")
	b, err := os.ReadFile(filepath.Join(w.Dir, "answer.txt"))
	require.NoError(t, err)
	require.Equal(t, "42\n", string(b))
	evs, err := a.Activity().Read(eventlog.ReadOptions{Type: "agent.work.done"})
	require.NoError(t, err)
	require.NotEmpty(t, evs)

	_, errs, code = alice(t, "workspace", "run", "--home", home, "--agent", "shell", "jobs", "echo 'no such file' >&2; exit 2")
	require.Equal(t, 1, code)
	require.Contains(t, errs, "sh -c exited 2: no such file")

	out, errs, code = alice(t, "workspace", "run", "--home", home, "--dialog", "--agent", "shell", "--timeout", "60", "jobs", "echo dialog-$((40+2))")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "dialog-42")

	_, errs, code = alice(t, "workspace", "run", "--home", home, "jobs")
	require.Equal(t, 1, code)
	require.Contains(t, errs, "want ID|TAG TEXT")
}
