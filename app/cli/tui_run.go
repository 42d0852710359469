package cli

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/live"
)

// runTUI runs the terminal UI until the user quits or ctx ends (SIGTERM).
func runTUI(ctx context.Context, a *app.App) error {
	model := tui.New(live.New(a), tui.Options{Version: buildVersion().Version})
	defer model.Close()
	p := tea.NewProgram(model, tea.WithContext(ctx))
	_, err := p.Run()
	if err != nil && (errors.Is(err, tea.ErrProgramKilled) || ctx.Err() != nil) {
		return nil
	}
	return err
}
