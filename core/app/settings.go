package app

// HeartbeatChanged tells the running heartbeat that heartbeat.json was
// edited (interval, enabled), so the change applies now rather than after
// the current wait.
func (a *App) HeartbeatChanged() {
	if a.heartbeat != nil {
		a.heartbeat.Poke()
	}
}
