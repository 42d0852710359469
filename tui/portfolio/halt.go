package portfolio

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// HaltCore is the kill switch, when the core has one: Halt freezes
// staging on every account and cancels resting orders; Resume lifts it
// (a person's decision). Both say what they did. Halted reads it; the
// pane reads it with every load, and a halt or resume from anywhere (the
// palette of any attached client, Telegram, alice halt / the halt API)
// is a trading event, which reloads the pane.
type HaltCore interface {
	Halt(ctx context.Context) (string, error)
	Resume(ctx context.Context) (string, error)
	Halted() (HaltState, error)
}

// HaltState is the kill switch as last read: on or off, since when (zero
// when unknown, e.g. a damaged record, which counts as halted), by whom
// and why.
type HaltState struct {
	Halted bool
	Since  time.Time
	By     string
	Reason string
}

// Halted is the kill switch as of the pane's last load; the root marks
// the status bar with it on every pane.
func (p *Pane) Halted() HaltState { return p.halt }

// haltLine is the account header's line while trading is halted.
func (p *Pane) haltLine() string {
	st, h := p.m.Styles(), p.halt
	text := ""
	if !h.Since.IsZero() {
		text = " since " + h.Since.Format("2006-01-02 15:04 MST")
	}
	if h.By != "" {
		text += " by " + h.By
	}
	if h.Reason != "" {
		text += " (" + h.Reason + ")"
	}
	line := st.Alert.Render(" HALTED ") + st.Error.Render(text) +
		st.Muted.Render(" · nothing stages on any account until a person resumes (ctrl+p Resume trading, or alice resume)")
	return ansi.Truncate(strings.TrimRight(line, " "), p.w, "…")
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
