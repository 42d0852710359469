package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/alice-trading/alice/core/inbox"
	"github.com/alice-trading/alice/core/schedule"
	"github.com/alice-trading/alice/workspace"
)

// workRunner is schedule.Runner over the workspace manager: the
// workspace-resident execution path of cron jobs and webhook tasks.
type workRunner struct{ a *App }

// maxInboxOutput is how much of a one-shot's output its inbox entry quotes.
const maxInboxOutput = 4000

func (r workRunner) RunTarget(ctx context.Context, t schedule.Target, prompt string, meta map[string]any) (schedule.RunResult, error) {
	m := r.a.workspaces
	if m == nil {
		return schedule.RunResult{}, errors.New("workspaces are not available")
	}
	timeout := time.Duration(t.TimeoutSec) * time.Second
	agent := workspace.Agent(t.Agent)
	switch t.Kind {
	case schedule.TargetSession:
		ws, ok := m.Get(t.Workspace)
		if !ok {
			return schedule.RunResult{}, fmt.Errorf("no workspace %q", t.Workspace)
		}
		res, err := m.Converse(ctx, workspace.DialogTurn{WorkspaceID: ws.ID, Session: t.Session, Agent: agent, Prompt: prompt, Timeout: timeout})
		detail := map[string]any{"workspaceId": ws.ID, "workspace": ws.Tag, "session": res.Session, "agentState": res.State.String(), "reply": res.Reply}
		if err != nil {
			return schedule.RunResult{Detail: detail}, err
		}
		reply := res.Reply
		if reply == "" {
			reply = "(no reply text)"
		}
		return schedule.RunResult{Summary: fmt.Sprintf("%s replied in workspace %s:\n%s", res.Session, ws.Tag, reply), Detail: detail}, nil
	default:
		ws, err := r.oneShotWorkspace(ctx, t, agent)
		if err != nil {
			return schedule.RunResult{}, err
		}
		if agent == "" {
			agent = workspace.AgentShell
			if len(ws.Agents) > 0 {
				agent = ws.Agents[0]
			}
		}
		res, runErr := m.RunHeadless(ctx, workspace.HeadlessRun{WorkspaceID: ws.ID, Agent: agent, Prompt: prompt, Model: t.Model, Timeout: timeout})
		files := make([]string, 0, len(res.Files))
		for _, f := range res.Files {
			files = append(files, f.Path)
		}
		detail := map[string]any{"workspaceId": ws.ID, "workspace": ws.Tag, "command": res.Command, "exitCode": res.ExitCode,
			"files": files, "output": tail(res.Output, maxInboxOutput)}
		if res.Command == "" && runErr != nil {
			return schedule.RunResult{Detail: detail}, runErr // never started (CLI missing, …)
		}
		entry, ierr := r.pushInbox(ws, res, meta, runErr)
		if ierr != nil {
			r.a.log.Warn("Inbox entry for a workspace run failed", "workspace", ws.Tag, "err", ierr)
		} else {
			detail["inboxId"] = entry.ID
		}
		if runErr != nil {
			return schedule.RunResult{Detail: detail}, runErr
		}
		return schedule.RunResult{Summary: fmt.Sprintf("%s finished in workspace %s (%s): %d file(s) changed — see the Inbox.",
			res.Command, ws.Tag, res.Duration.Round(time.Millisecond), len(files)), Detail: detail}, nil
	}
}

// oneShotWorkspace resolves the target's workspace, creating one named
// after the run when none is given.
func (r workRunner) oneShotWorkspace(ctx context.Context, t schedule.Target, agent workspace.Agent) (workspace.Workspace, error) {
	m := r.a.workspaces
	if t.Workspace != "" {
		ws, ok := m.Get(t.Workspace)
		if !ok {
			return workspace.Workspace{}, fmt.Errorf("no workspace %q (create it, or omit target.workspace for a new one)", t.Workspace)
		}
		return ws, nil
	}
	if agent == "" {
		agent = workspace.AgentShell
	}
	tag := "run-" + time.Now().UTC().Format("20060102-150405") + "-" + uuid.NewString()[:4]
	template := "shell-only"
	if agent != workspace.AgentShell {
		template = "chat"
	}
	return m.Create(ctx, tag, template, []workspace.Agent{agent})
}

// pushInbox records the run in the inbox: the files it wrote (live
// pointers) and its output.
func (r workRunner) pushInbox(ws workspace.Workspace, res workspace.HeadlessResult, meta map[string]any, runErr error) (inbox.Entry, error) {
	var docs []inbox.Doc
	for _, f := range res.Files {
		if f.Change != "deleted" {
			docs = append(docs, inbox.Doc{Path: f.Path})
		}
	}
	what := "A scheduled task"
	if name, ok := meta["jobName"].(string); ok && name != "" {
		what = "Cron job **" + name + "**"
	}
	status := fmt.Sprintf("exit %d", res.ExitCode)
	if runErr != nil {
		status = "failed: " + runErr.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s ran `%s` in %s (%s, %s).\n", what, res.Command, ws.Tag, status, res.Duration.Round(time.Millisecond))
	if len(res.Files) > 0 {
		b.WriteString("\nChanged files:\n")
		for _, f := range res.Files {
			fmt.Fprintf(&b, "- `%s` (%s)\n", f.Path, f.Change)
		}
	}
	if out := strings.TrimSpace(res.Output); out != "" {
		fmt.Fprintf(&b, "\nOutput:\n```\n%s\n```\n", tail(out, maxInboxOutput))
	}
	return r.a.inbox.Append(inbox.Entry{WorkspaceID: ws.ID, WorkspaceLabel: ws.DisplayName(), Docs: docs, Comments: b.String()})
}

// tail keeps the last n bytes of s (at a rune boundary).
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	for len(s) > 0 && s[0]&0xC0 == 0x80 {
		s = s[1:]
	}
	return "…" + s
}
