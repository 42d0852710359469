package app

import (
	"context"

	"github.com/alice-trading/alice/workspace"
)

// startWorkspaceAlerts tells people (TUI toast, Telegram — never an agent
// connector) when a workspace agent needs them, finished or errored. It
// needs ConnectorCenter.NotifyHumans; without it the alerts are off and a
// start-up problem says so.
func (a *App) startWorkspaceAlerts(ctx context.Context) {
	n, ok := any(a.Connectors).(workspace.HumanNotifier)
	if !ok || a.Workspaces == nil {
		a.Log.Warn("Workspace alerts are off: the connector center cannot notify people only")
		return
	}
	al := workspace.NewAlerter(a.Workspaces, n, workspace.AlertOptions{Logger: a.Log.With("component", "workspace-alerts")})
	a.goLoop("workspace alerts", func() { al.Run(ctx) })
}
