package app

import "context"

// build creates the domain components (filled in as they land).
func (a *App) build() error {
	return nil
}

// start opens listeners and background loops.
func (a *App) start(ctx context.Context) error {
	_ = ctx
	return nil
}
