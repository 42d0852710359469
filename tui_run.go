package main

import (
	"context"
	"errors"

	"alice/core/app"
)

// runTUI runs the terminal UI until the user quits or ctx ends.
func runTUI(ctx context.Context, a *app.App) error {
	_ = ctx
	_ = a
	return errors.New("the terminal UI is not built yet; use `alice serve`")
}
