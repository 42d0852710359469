package app

import (
	"context"

	"github.com/alice-trading/alice/workspace"
)

// startWorkspaceAlerts tells people (TUI toast, Telegram — never an agent
// connector) when a workspace agent needs them, finished or errored.
func (a *App) startWorkspaceAlerts(ctx context.Context) {
	var n workspace.HumanNotifier = a.connectors
	al := workspace.NewAlerter(a.workspaces, n, workspace.AlertOptions{Logger: a.log.With("component", "workspace-alerts")})
	a.goLoop("workspace alerts", func() { al.Run(ctx) })
}
