package cli

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/attach"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/live"
)

// runTUI runs the terminal UI until the user quits or ctx ends (SIGTERM).
func runTUI(ctx context.Context, a *app.App, ws config.Workspaces) error {
	model := tui.New(live.New(a), tui.Options{Version: buildVersion().Version})
	defer model.Close()
	// The renderer (third_party/bubbletea) is event driven: it writes a
	// changed view at once and caps bursts at this rate, dropping
	// intermediate views; idle, it runs no timer.
	p := tea.NewProgram(model, tea.WithContext(ctx), tea.WithFPS(480), tea.WithEscapeTime(ws.EscapeTime()))
	model.SetPatcher(p.Patch)
	_, err := p.Run()
	if err != nil && (errors.Is(err, tea.ErrProgramKilled) || ctx.Err() != nil) {
		return nil
	}
	return err
}

// newClientUI builds the TUI for one attached terminal. Each client has its
// own model (pane, selection, scroll) over the one core.
// workspaces.json is read for each client, so an escape time changed
// there applies from the next attach on (a running core keeps its
// sessions).
func newClientUI(a *app.App, store *config.Store, _ attach.Client) (attach.UI, error) {
	ws, err := store.Workspaces()
	if err != nil {
		return attach.UI{}, err
	}
	model := tui.New(live.New(a), tui.Options{Version: buildVersion().Version, Detachable: true})
	return attach.UI{
		Model: model,
		Quit: func(final tea.Model) bool {
			q, ok := final.(interface{ QuitRequested() bool })
			return ok && q.QuitRequested()
		},
		Close:   model.Close,
		Options: []tea.ProgramOption{tea.WithEscapeTime(ws.EscapeTime())},
	}, nil
}
