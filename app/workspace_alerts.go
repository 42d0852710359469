package app

import (
	"context"

	"github.com/alice-trading/alice/workspace"
)

// startWorkspaceAlerts tells people (TUI toast, Telegram — never an agent
// connector) when a workspace agent needs them, finished or errored.
func (a *App) startWorkspaceAlerts(ctx context.Context) {
	var n workspace.HumanNotifier = a.Connectors
	al := workspace.NewAlerter(a.Workspaces, n, workspace.AlertOptions{Logger: a.Log.With("component", "workspace-alerts")})
	a.goLoop("workspace alerts", func() { al.Run(ctx) })
}
