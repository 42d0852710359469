package portfolio

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// HaltCore is the kill switch, when the core has one: Halt freezes
// staging on every account and cancels resting orders; Resume lifts it
// (a person's decision). Both say what they did.
type HaltCore interface {
	Halt(ctx context.Context) (string, error)
	Resume(ctx context.Context) (string, error)
}

// haltActions are the palette's kill-switch entries; each asks first.
func (p *Pane) haltActions() []kit.Action {
	hc, ok := p.core.(HaltCore)
	if !ok {
		return nil
	}
	ask := func(title, body string, run func(context.Context) (string, error)) func() tea.Cmd {
		return func() tea.Cmd {
			ctx, reload := p.m.AppContext(), p.Load()
			p.m.OpenDialog(title, body, func() tea.Msg {
				out, err := run(ctx)
				if err != nil {
					return kit.ErrMsg{Err: err}
				}
				return approvedMsg{out, reload}
			})
			return nil
		}
	}
	return []kit.Action{
		{ID: "portfolio.halt", Title: "Halt all trading (kill switch)", Group: "Portfolio", Keywords: "kill switch stop freeze cancel emergency panic",
			Run: ask("Halt ALL trading?", "Staging freezes on every account, commits awaiting approval are withdrawn and every resting order is cancelled.\nOnly a person lifts it (Resume trading, or alice resume).", hc.Halt)},
		{ID: "portfolio.resume", Title: "Resume trading (lift the kill switch)", Group: "Portfolio", Keywords: "kill switch unhalt",
			Run: ask("Resume trading?", "Accounts stage again; pushes still need their approvals.", hc.Resume)},
	}
}
