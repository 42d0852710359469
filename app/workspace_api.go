package app

import (
	"context"

	"github.com/alice-trading/alice/core/schedule"
	"github.com/alice-trading/alice/workspace/wsapi"
)

// MainListener names the main MCP listener in Listeners() and in the data
// dir lock's owner file, where `alice workspace` finds the running API.
const MainListener = "MCP"

// mountWorkspaceAPI serves /api/workspaces on the main listener, behind
// the MCP port's protections, for `alice workspace …` and scripts. Runs
// (`alice workspace run`) go through the durable work queue.
func (a *App) mountWorkspaceAPI() {
	h := wsapi.Handler(wsapi.Service{M: a.workspaces, MCPURL: a.mcp.URL, Queue: a.queueWorkspaceRun})
	for _, route := range wsapi.Routes {
		a.mcp.HandleProtected(route, h)
	}
}

// queueWorkspaceRun submits a workspace run as a manual task targeting the
// workspace and waits for its outcome.
func (a *App) queueWorkspaceRun(ctx context.Context, wsID string, req wsapi.RunRequest) (wsapi.RunResult, error) {
	kind := schedule.TargetOneShot
	if req.Mode == "session" {
		kind = schedule.TargetSession
	}
	t := &schedule.Target{Kind: kind, Workspace: wsID, Agent: req.Agent, Session: req.Session, Model: req.Model, TimeoutSec: req.TimeoutSec}
	out := a.worker.Run(ctx, schedule.Request{Source: schedule.SourceManual, Prompt: req.Prompt,
		Metadata: map[string]any{"via": "alice workspace run"}, Target: t})
	res := wsapi.RunResult{WorkspaceID: wsID, TaskID: out.TaskID, Summary: out.Text}
	if out.Err != nil {
		res.Error = out.Err.Error()
	}
	return res, nil
}
