package app_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/connector/telegram"
	"github.com/alice-trading/alice/core/eventlog"
	"github.com/alice-trading/alice/core/inbox"
	"github.com/alice-trading/alice/core/schedule"
	"github.com/alice-trading/alice/workspace"
	"github.com/alice-trading/alice/workspace/sandbox"
)

// lastOutcome is the outcome event of a task.
func lastOutcome(t *testing.T, log app.Activity, taskID string) (string, map[string]any) {
	t.Helper()
	all, err := log.Read(eventlog.ReadOptions{})
	require.NoError(t, err)
	for i := len(all) - 1; i >= 0; i-- {
		var p map[string]any
		require.NoError(t, json.Unmarshal(all[i].Payload, &p))
		if p["taskId"] == taskID && strings.HasPrefix(all[i].Type, "agent.work.") && all[i].Type != "agent.work.requested" && all[i].Type != "agent.work.started" {
			return all[i].Type, p
		}
	}
	t.Fatalf("no outcome for task %s", taskID)
	return "", nil
}

// TestCronJobRunsAShellOneShotInAWorkspace: a cron job targeting a new
// workspace runs its payload as a shell command; the file it wrote is in
// the inbox entry (a live pointer) and in the task's done event.
func TestCronJobRunsAShellOneShotInAWorkspace(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	job, err := a.Automation().SaveJob(schedule.JobInput{Name: "nightly report", Prompt: "printf 'AAPL 231.40\\n' > report.txt && echo wrote report",
		Schedule: "every 24h", Enabled: true, Target: &schedule.Target{Kind: schedule.TargetOneShot, Agent: "shell", TimeoutSec: 60}})
	require.NoError(t, err)
	out, err := a.Automation().RunJobNow(context.Background(), job.ID)
	require.NoError(t, err)
	require.NoError(t, out.Err)
	require.Contains(t, out.Text, "1 file(s) changed")

	typ, p := lastOutcome(t, a.Activity(), out.TaskID)
	require.Equal(t, "agent.work.done", typ)
	require.Equal(t, []any{"report.txt"}, p["files"])
	require.EqualValues(t, 0, p["exitCode"])
	wsID := p["workspaceId"].(string)
	ws, ok := a.Workspaces().Get(wsID)
	require.True(t, ok)
	b, err := os.ReadFile(filepath.Join(ws.Dir, "report.txt"))
	require.NoError(t, err)
	require.Equal(t, "AAPL 231.40\n", string(b))

	page, err := a.Inbox().List(inbox.ListOptions{})
	require.NoError(t, err)
	require.Len(t, page.Entries, 1)
	e := page.Entries[0]
	require.Equal(t, p["inboxId"], e.ID)
	require.Equal(t, wsID, e.WorkspaceID)
	require.Equal(t, []inbox.Doc{{Path: "report.txt"}}, e.Docs)
	require.Contains(t, e.Comments, "Cron job **nightly report**")
	require.Contains(t, e.Comments, "wrote report")
}

// TestCronJobContinuesAPersistentShellSession: the job's payload is typed
// into a running shell session (a real pty) and the reply is captured.
func TestCronJobContinuesAPersistentShellSession(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	ws, err := a.Workspaces().Create(context.Background(), "desk", "shell-only", []workspace.Agent{workspace.AgentShell})
	require.NoError(t, err)
	job, err := a.Automation().SaveJob(schedule.JobInput{Name: "ask the desk", Prompt: "echo desk-answer-$((6*7))",
		Schedule: "every 1h", Enabled: true, Target: &schedule.Target{Kind: schedule.TargetSession, Workspace: "desk", Agent: "shell", TimeoutSec: 60}})
	require.NoError(t, err)
	out, err := a.Automation().RunJobNow(context.Background(), job.ID)
	require.NoError(t, err)
	require.NoError(t, out.Err)
	require.Contains(t, out.Text, "desk-answer-42")

	typ, p := lastOutcome(t, a.Activity(), out.TaskID)
	require.Equal(t, "agent.work.done", typ)
	require.Contains(t, p["reply"], "desk-answer-42")
	require.Equal(t, ws.ID, p["workspaceId"])
	sessions := a.Workspaces().Sessions(ws.ID)
	require.Len(t, sessions, 1, "the session stays for the next turn")

	// A second turn continues the same session.
	out, err = a.Automation().RunJobNow(context.Background(), job.ID)
	require.NoError(t, err)
	require.NoError(t, out.Err)
	require.Len(t, a.Workspaces().Sessions(ws.ID), 1)
}

// TestClaudeOneShotWithoutAKeyEndsInARecordedError runs the real claude
// CLI (when installed) with an empty config: the task fails with the CLI's
// own readable message in agent.work.error.
func TestClaudeOneShotWithoutAKeyEndsInARecordedError(t *testing.T) {
	if _, err := exec.LookPath("claude"); err != nil {
		t.Skip("claude CLI not installed (npm i -g @anthropic-ai/claude-code)")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	a := apptest.Start(t, nil)
	job, err := a.Automation().SaveJob(schedule.JobInput{Name: "claude digest", Prompt: "Summarise the repository in one line.",
		Schedule: "every 24h", Enabled: true, Target: &schedule.Target{Kind: schedule.TargetOneShot, Agent: "claude", TimeoutSec: 120}})
	require.NoError(t, err)
	out, err := a.Automation().RunJobNow(context.Background(), job.ID)
	require.NoError(t, err)
	require.Error(t, out.Err)
	typ, p := lastOutcome(t, a.Activity(), out.TaskID)
	require.Equal(t, "agent.work.error", typ)
	msg := p["error"].(string)
	t.Logf("recorded error: %s", msg)
	require.Contains(t, msg, "claude -p exited")
	require.NotContains(t, msg, "(no output)", "the CLI's own message is recorded")
}

// TestTelegramRunIsKeyedByTheMessage: /run queues the job with the
// message as the key; the same message again never runs it twice.
func TestTelegramRunIsKeyedByTheMessage(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	_, err := a.Automation().SaveJob(schedule.JobInput{Name: "stamp", Prompt: "echo x >> stamps.txt", Schedule: "every 24h", Enabled: true,
		Target: &schedule.Target{Kind: schedule.TargetOneShot, Agent: "shell", TimeoutSec: 60}})
	require.NoError(t, err)
	wc := app.TelegramCommands(a).(telegram.WorkCommands)
	out, err := wc.RunJob("stamp", "telegram:42:7")
	require.NoError(t, err)
	require.Contains(t, out, `Running "stamp" now`)
	count := func(pred func(eventlog.Entry) bool) (n int) {
		all, err := a.Activity().Read(eventlog.ReadOptions{})
		require.NoError(t, err)
		for _, e := range all {
			if pred(e) {
				n++
			}
		}
		return n
	}
	outcomes := func() int {
		return count(func(e eventlog.Entry) bool {
			return strings.HasPrefix(e.Type, "agent.work.") && e.Type != "agent.work.requested" && e.Type != "agent.work.started"
		})
	}
	fires := func() int { return count(func(e eventlog.Entry) bool { return e.Type == "cron.fire" }) }
	require.Eventually(t, func() bool { return outcomes() == 1 }, 30*time.Second, 20*time.Millisecond)
	_, err = wc.RunJob("stamp", "telegram:42:7") // Telegram re-delivered the message
	require.NoError(t, err)
	_, err = wc.RunJob("stamp", "telegram:42:8") // a new message runs it again
	require.NoError(t, err)
	// All three fires are recorded; only two became tasks.
	require.Eventually(t, func() bool { return fires() == 3 && outcomes() == 2 }, 30*time.Second, 20*time.Millisecond)
	require.Equal(t, 1, count(func(e eventlog.Entry) bool {
		return e.Type == "agent.work.requested" && strings.Contains(string(e.Payload), `"key":"telegram:42:7"`)
	}), "the re-delivered message did not run the job again")
	_, err = wc.RunJob("nope", "telegram:42:9")
	require.ErrorContains(t, err, `no cron job "nope"`)
}

// TestOneShotCannotReachAliceFiles: a cron job's shell one-shot (what any
// MCP client can schedule) cannot read or change accounts.json or read the
// operator key: the app runs workspace work in the sandbox that hides
// alice's config, data and logs (skipped where the kernel refuses it).
func TestOneShotCannotReachAliceFiles(t *testing.T) {
	t.Parallel()
	if err := sandbox.Probe(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
	a := apptest.Start(t, nil)
	p := a.Paths()
	accounts := filepath.Join(p.Config, config.AccountsFile)
	key := filepath.Join(p.Data, config.OperatorKeyFile)
	before, err := os.ReadFile(accounts)
	require.NoError(t, err)
	exe, err := os.Executable()
	require.NoError(t, err)
	got := runOneShot(t, a, "escape", "cat "+accounts+" >/dev/null 2>&1 && echo LEAK-read; "+
		"echo '[]' 2>/dev/null > "+accounts+" && echo LEAK-write; "+
		"cat "+key+" >/dev/null 2>&1 && echo LEAK-key; "+
		"test -r "+exe+" && echo exe-readable; : 2>/dev/null >> "+exe+" && echo LEAK-exe")
	require.Contains(t, got, "exe-readable", "alice's executable is there, read-only")
	require.NotContains(t, got, "LEAK")
	after, err := os.ReadFile(accounts)
	require.NoError(t, err)
	require.Equal(t, string(before), string(after))
}

// Nor another alice home's files: with two instances, an agent in one
// read the other's operator key (black-box F3). Homes register as their
// cores start; each sandbox hides every registered one.
func TestOneShotCannotReachAnotherHome(t *testing.T) {
	t.Parallel()
	if err := sandbox.Probe(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
	other := apptest.Start(t, nil)
	a := apptest.Start(t, nil)
	op := other.Paths()
	key := filepath.Join(op.Data, config.OperatorKeyFile)
	_, err := os.Stat(key)
	require.NoError(t, err, "the other home has an operator key")
	got := runOneShot(t, a, "neighbour", "cat "+key+" >/dev/null 2>&1 && echo LEAK-key; ls "+op.Config+" | grep -q json && echo LEAK-config")
	require.NotContains(t, got, "LEAK")
}

// runOneShot runs script as a cron job's one-shot shell run in a fresh
// core a (whose inbox is empty) and returns its output, as the run's
// inbox entry has it; the script's end is checked to have been reached.
func runOneShot(t *testing.T, a *app.App, name, script string) string {
	t.Helper()
	job, err := a.Automation().SaveJob(schedule.JobInput{Name: name, Schedule: "every 24h", Enabled: true,
		Prompt: script + "; echo checked",
		Target: &schedule.Target{Kind: schedule.TargetOneShot, Agent: "shell", TimeoutSec: 60}})
	require.NoError(t, err)
	out, err := a.Automation().RunJobNow(context.Background(), job.ID)
	require.NoError(t, err)
	require.NoError(t, out.Err)
	page, err := a.Inbox().List(inbox.ListOptions{})
	require.NoError(t, err)
	require.Len(t, page.Entries, 1)
	require.Contains(t, page.Entries[0].Comments, "checked", "the run's output")
	return page.Entries[0].Comments
}
