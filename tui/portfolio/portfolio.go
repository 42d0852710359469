package portfolio

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
)

// portfolioPane shows accounts, positions, orders, the equity curve, the
// Trading-as-Git log and the commits waiting for approval.
type Pane struct {
	m          kit.Host
	core       Core
	w, h       int
	focused    bool
	accounts   []AccountSummary
	acct       int
	positions  []Position
	orders     []Order
	pending    []PendingCommit
	log        []CommitLogEntry
	curve      []kit.EquityPoint
	halt       HaltState
	loadedFor  string
	history    map[string][]float64 // symbol → recent prices (PositionHistoryCore)
	historyFor string
	view       paneView
	// top is the first body line shown (everything under the account
	// tabs scrolls when it is taller than the pane; kit.Window).
	top  int
	hist struct { // the history view's data (HistoryCore)
		account string
		orders  []HistoryOrder
		trades  []HistoryTrade
		costs   []SessionCost
		err     string
	}
}

type portfolioMsg struct {
	accounts  []AccountSummary
	account   string
	positions []Position
	orders    []Order
	pending   []PendingCommit
	log       []CommitLogEntry
	curve     []kit.EquityPoint
	err       error
	// moved: the account asked for is gone (removed, disabled), so the
	// load fell back to its neighbour in the list.
	moved bool
	// halt is the kill switch, nil when the core has none or it could
	// not be read (the last state read stays).
	halt *HaltState
}

func New(m kit.Host, core Core) *Pane {
	return &Pane{m: m, core: core}
}

func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h }
func (p *Pane) Focus()           { p.focused = true }
func (p *Pane) Blur()            { p.focused = false }
func (p *Pane) Capturing() bool  { return false }
func (p *Pane) ShortHelp() []key.Binding {
	k := p.m.KeyMap().Portfolio
	out := []key.Binding{k.PrevAccount, k.NextAccount, k.Approve, k.Reject, k.Refresh, k.History}
	if p.scrollable() {
		// first, as the footer keeps the first hints that fit: the
		// pane's own header already names the account and approval keys
		out = append([]key.Binding{k.Down, k.Up}, out...)
	}
	return out
}

// AllKeys is what help lists: the footer's keys and the scroll keys.
func (p *Pane) AllKeys() []key.Binding {
	k := p.m.KeyMap().Portfolio
	return []key.Binding{k.PrevAccount, k.NextAccount, k.Approve, k.Reject, k.Refresh, k.History,
		k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

func accountID(a AccountSummary) string { return a.ID }

func (p *Pane) current() string {
	if p.acct < len(p.accounts) {
		return p.accounts[p.acct].ID
	}
	return ""
}

// Load fetches everything for the selected account in one Cmd (and the
// positions' price history in another).
func (p *Pane) Load() tea.Cmd {
	return tea.Batch(p.loadAll(), p.loadHistory(), p.loadHistoryView())
}

func (p *Pane) loadAll() tea.Cmd {
	core, want, at := p.core, p.current(), p.acct
	hc, _ := core.(HaltCore)
	return func() tea.Msg {
		var r portfolioMsg
		if hc != nil {
			if st, err := hc.Halted(); err == nil {
				r.halt = &st
			}
		}
		if r.accounts, r.err = core.Accounts(); r.err != nil {
			return r
		}
		// The account shown may have gone since (removed in Settings, an
		// edit of accounts.json): show its neighbour, as a list keeps the
		// cursor on a removed row's place, instead of asking the core for
		// an account it no longer has.
		if i := kit.Reselect(r.accounts, accountID, want, at); i < len(r.accounts) {
			r.moved = want != "" && r.accounts[i].ID != want
			want = r.accounts[i].ID
		} else {
			want = ""
		}
		r.account = want
		if want == "" {
			return r
		}
		var errs []error
		var err error
		if r.positions, err = core.Positions(want); err != nil {
			errs = append(errs, err)
		}
		if r.orders, err = core.Orders(want); err != nil {
			errs = append(errs, err)
		}
		if r.pending, err = core.Pending(); err != nil {
			errs = append(errs, err)
		}
		if r.log, err = core.TradingLog(want, 8); err != nil {
			errs = append(errs, err)
		}
		if r.curve, err = core.EquityCurve(want); err != nil {
			errs = append(errs, err)
		}
		if len(errs) > 0 {
			r.err = errs[0]
		}
		return r
	}
}

func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case portfolioMsg:
		if msg.halt != nil {
			p.halt = *msg.halt
		}
		p.accounts = msg.accounts
		p.acct = 0
		for i, a := range p.accounts {
			if a.ID == msg.account {
				p.acct = i
			}
		}
		p.positions, p.orders, p.pending, p.log, p.curve, p.loadedFor = msg.positions, msg.orders, msg.pending, msg.log, msg.curve, msg.account
		var hist tea.Cmd
		if p.historyFor != msg.account {
			p.historyFor = msg.account // the first load had no account yet
			hist = p.loadHistory()
		}
		if msg.moved {
			// the history view asked for the account that went away
			hist = tea.Batch(hist, p.loadHistoryView())
		}
		if msg.err != nil {
			return tea.Batch(hist, kit.ErrCmd(msg.err))
		}
		return hist
	case snapshotDoneMsg:
		p.m.EndWork("snapshot")
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		return tea.Batch(p.Load(), func() tea.Msg { return kit.FlashMsg("snapshot taken") })
	case historyMsg:
		if msg.account == p.current() {
			p.hist.account, p.hist.orders, p.hist.trades, p.hist.costs, p.hist.err = msg.account, msg.orders, msg.trades, msg.costs, ""
			if msg.err != nil {
				p.hist.err = msg.err.Error()
			}
		}
		return nil
	case positionHistoryMsg:
		if msg.account == p.current() || p.current() == "" {
			p.history = msg.prices
		}
		return nil
	case approvedMsg:
		text := msg.text
		return tea.Batch(msg.reload, func() tea.Msg { return kit.FlashMsg(text) })
	case tea.KeyPressMsg:
		return p.onKey(msg)
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			p.scroll(-3)
		case tea.MouseWheelDown:
			p.scroll(3)
		}
	}
	return nil
}

func (p *Pane) pendingFor(acct string) (PendingCommit, bool) {
	for _, pc := range p.pending {
		if pc.Account == acct {
			return pc, true
		}
	}
	if len(p.pending) > 0 {
		return p.pending[0], true
	}
	return PendingCommit{}, false
}

func (p *Pane) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.m.KeyMap().Portfolio
	switch {
	case key.Matches(msg, k.PrevAccount):
		if p.acct > 0 {
			p.acct, p.top = p.acct-1, 0
			return p.Load()
		}
	case key.Matches(msg, k.NextAccount):
		if p.acct < len(p.accounts)-1 {
			p.acct, p.top = p.acct+1, 0
			return p.Load()
		}
	case key.Matches(msg, k.Up):
		p.scroll(-1)
	case key.Matches(msg, k.Down):
		p.scroll(1)
	case key.Matches(msg, k.PageUp):
		p.scroll(-max(1, p.bodyRows()-1))
	case key.Matches(msg, k.PageDown):
		p.scroll(max(1, p.bodyRows()-1))
	case key.Matches(msg, k.Top):
		p.top = 0
	case key.Matches(msg, k.Bottom):
		p.scroll(len(p.bodyLines()))
	case key.Matches(msg, k.Refresh):
		return p.Load()
	case key.Matches(msg, k.History):
		p.top = 0
		return p.toggleView()
	case key.Matches(msg, k.Approve):
		pc, ok := p.pendingFor(p.current())
		if !ok {
			return func() tea.Msg { return kit.FlashMsg("nothing is waiting for approval") }
		}
		core, ctx, reload := p.core, p.m.AppContext(), p.Load()
		// operations (with their evidence) first, in full; then the
		// agent's message as one plain line cut to the dialog's width
		var ops []string
		for _, op := range pc.Operations {
			ops = append(ops, "• "+plainLine(op, 0))
		}
		detail := strings.Join(ops, "\n")
		if pc.Evidence != "" {
			detail = plainLines(pc.Evidence)
		}
		body := fmt.Sprintf("Push commit %s on %s?\n%s\n\n%s", pc.Hash, plainLine(pc.Account, 0), detail, p.messageLine(pc.Message))
		p.m.OpenDialogWhile("Approve and execute these orders?", body, func() tea.Msg {
			res, err := core.Approve(ctx, pc.Account, pc.Hash)
			if err != nil {
				return kit.ErrMsg{Err: err}
			}
			return approvedMsg{res, reload}
		}, p.stillPending(pc.Account, pc.Hash))
	case key.Matches(msg, k.Reject):
		pc, ok := p.pendingFor(p.current())
		if !ok {
			return func() tea.Msg { return kit.FlashMsg("nothing is waiting for approval") }
		}
		core, ctx, reload := p.core, p.m.AppContext(), p.Load()
		p.m.OpenDialogWhile("Reject this commit?", fmt.Sprintf("%s on %s\n%s", pc.Hash, plainLine(pc.Account, 0), p.messageLine(pc.Message)), func() tea.Msg {
			if err := core.Reject(ctx, pc.Account, pc.Hash, "rejected in the alice UI"); err != nil {
				return kit.ErrMsg{Err: err}
			}
			return approvedMsg{"commit " + pc.Hash + " rejected", reload}
		}, p.stillPending(pc.Account, pc.Hash))
	}
	return nil
}

// approvedMsg reports a push/reject outcome and reloads the pane.
type approvedMsg struct {
	text   string
	reload tea.Cmd
}

func (p *Pane) pnl(d decimal.Decimal) string { return kit.PnlPad(p.m.Styles(), d, 0) }

func (p *Pane) pnlPad(d decimal.Decimal, width int) string {
	return kit.PnlPad(p.m.Styles(), d, width)
}

// stillPending reports, from the pane's last load, whether the commit still
// waits for a decision: an approval taken in another client or on Telegram
// closes this client's dialog once the reload shows it.
func (p *Pane) stillPending(account, hash string) func() bool {
	return func() bool {
		for _, pc := range p.pending {
			if pc.Account == account && pc.Hash == hash {
				return true
			}
		}
		return false
	}
}

// messageLine is a commit message for a dialog: one plain line, cut with
// "…" to what fits inside the dialog's frame.
func (p *Pane) messageLine(msg string) string {
	return ansi.Truncate("Message: "+plainLine(msg, 0), max(20, p.w-8), "…")
}
