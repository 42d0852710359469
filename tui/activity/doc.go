// Package activity is the Activity pane: the event log, runs (cron,
// heartbeat, webhook), tool calls and notifications, with a filter and a
// detail view. It reaches alice through the optional ActivityCore.
package activity
