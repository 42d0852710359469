// Package live adapts the running core (app.App) to the tui.Core
// interface. It is the only place that knows both sides, so the TUI stays
// testable with fakes and core never imports the UI.
package live

import (
	"context"
	"errors"
	"fmt"
	"github.com/alice-trading/alice/core/connector/telegram"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/app"
	appsettings "github.com/alice-trading/alice/app/settings"
	"github.com/alice-trading/alice/core/inbox"
	"github.com/alice-trading/alice/core/schedule"
	"github.com/alice-trading/alice/trading/uta"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/activity"
	inboxpane "github.com/alice-trading/alice/tui/inbox"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/alice-trading/alice/tui/workspaces"
	"github.com/alice-trading/alice/workspace"
	uv "github.com/charmbracelet/ultraviolet"
)

// Core implements tui.Core over an App's services: it holds the use
// cases it adapts (never the App's parts) and keeps the App itself only
// for its status (listeners, problems, notifications).
type Core struct {
	a          *app.App
	trading    app.Trading
	ws         app.Workspaces
	chat       app.Chat
	connectors app.Connectors
	channels   app.Channels
	inbox      app.Inbox
	tools      app.Tools
	activity   app.Activity
	settings   *appsettings.Service
	automation *schedule.Automation
}

var _ tui.Core = (*Core)(nil)

// New wraps a started App.
func New(a *app.App) *Core {
	return &Core{a: a, trading: a.Trading(), ws: a.Workspaces(), chat: a.Chat(), connectors: a.Connectors(), channels: a.Channels(),
		inbox: a.Inbox(), tools: a.Tools(), activity: a.Activity(), settings: a.Settings(), automation: a.Automation()}
}

// Status reports listeners, the provider and start-up problems.
func (c *Core) Status() tui.StatusInfo {
	var s tui.StatusInfo
	for _, l := range c.a.Listeners() {
		switch l.Name {
		case "MCP":
			s.MainMCP = l.URL
		case "Ask":
			s.AskMCP = l.URL
		}
	}
	s.Provider = c.a.ProviderLabel("tui")
	s.Problems = c.a.Problems()
	h, ok := c.a.TelegramHealth()
	if ok && h.State == telegram.LinkDown {
		// When it went down, not how many tries: the status bar is not
		// redrawn at each retry (nothing ticks in Chat or Workspaces),
		// and a count would go stale there.
		s.Telegram = "Telegram unreachable since " + h.Since.Local().Format("15:04") + ", retrying"
	}
	s.TelegramBot = ok
	if c.automation != nil {
		for _, j := range c.automation.Jobs() {
			if j.Enabled {
				s.Schedules++
			}
		}
		s.Heartbeat = c.automation.HeartbeatEnabled()
	}
	return s
}

// Events merges inbox, trading, workspace and notification events into UI
// events. Bursts are fine: the panes reload, and loads are idempotent.
func (c *Core) Events(ctx context.Context) <-chan any {
	out := make(chan any, 64)
	send := func(v any) {
		select {
		case out <- v:
		default: // the UI is behind; it will reload on the next event or tick
		}
	}
	ib := c.inbox.Subscribe(ctx)
	tr := c.trading.Subscribe(ctx)
	ws := c.ws.Subscribe(ctx)
	notes := c.a.Notifications(ctx)
	evlog := c.activity.Subscribe(ctx)
	go func() {
		defer close(out)
		for {
			select {
			case <-ctx.Done():
				return
			case _, ok := <-ib:
				if !ok {
					return
				}
				send(tui.InboxChangedEvent{})
			case ev, ok := <-tr:
				if !ok {
					return
				}
				send(tui.TradingChangedEvent{ApprovalRequested: ev.Type == "trade.approval-requested", MarkMoved: ev.Type == uta.EventSimMarkPrice})
			case _, ok := <-ws:
				if !ok {
					return
				}
				send(tui.WorkspacesChangedEvent{})
			case n, ok := <-notes:
				if !ok {
					notes = nil
					continue
				}
				send(tui.NotificationEvent{Text: n.Text, Source: n.Source})
			case e, ok := <-evlog:
				if !ok {
					evlog = nil
					continue
				}
				send(activity.ActivityChangedEvent{Seq: e.Seq})
			}
		}
	}()
	return out
}

// ---- inbox ----

func (c *Core) Inbox(limit int) ([]inboxpane.InboxEntry, error) {
	page, err := c.inbox.List(inbox.ListOptions{Limit: limit})
	if err != nil {
		return nil, err
	}
	out := make([]inboxpane.InboxEntry, 0, len(page.Entries))
	for _, e := range page.Entries {
		out = append(out, c.inboxEntry(e))
	}
	return out, nil
}

func (c *Core) inboxEntry(e inbox.Entry) inboxpane.InboxEntry {
	name := e.WorkspaceLabel
	if ws, ok := c.ws.Get(e.WorkspaceID); ok {
		name = ws.DisplayName()
	}
	if name == "" {
		name = e.WorkspaceID
	}
	docs := make([]string, 0, len(e.Docs))
	for _, d := range e.Docs {
		docs = append(docs, d.Path)
	}
	return inboxpane.InboxEntry{ID: e.ID, WorkspaceID: e.WorkspaceID, Workspace: name, Docs: docs, Comments: e.Comments, Time: time.UnixMilli(e.TS)}
}

func (c *Core) RenderInbox(id string, width int) ([]inboxpane.RenderedDoc, error) {
	e, err := c.inbox.Get(id)
	if err != nil {
		return nil, err
	}
	var out []inboxpane.RenderedDoc
	for _, d := range inbox.RenderDocs(e, c.ws.DocReader(), width) {
		out = append(out, inboxpane.RenderedDoc{Path: d.Path, Body: d.Body, Tombstone: d.Tombstone})
	}
	return out, nil
}

func (c *Core) DeleteInbox(id string) error { return c.inbox.Delete(id) }

// ---- portfolio ----

func (c *Core) Accounts() ([]portfolio.AccountSummary, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var out []portfolio.AccountSummary
	for _, s := range c.trading.Accounts() {
		a := portfolio.AccountSummary{ID: s.ID, Label: s.Label, Broker: s.Preset, Health: string(s.Health), AutoApprove: s.AutoApprove, Error: s.Error}
		if !s.Enabled {
			a.Health = "disabled"
		} else if info, err := c.trading.Account(ctx, s.ID); err == nil {
			a.NetLiq, a.Cash, a.UnrealizedPnL, a.RealizedPnL = info.NetLiquidation, info.TotalCashValue, info.UnrealizedPnL, info.RealizedPnL
		} else if a.Error == "" {
			a.Error = err.Error()
		}
		out = append(out, a)
	}
	return out, nil
}

func (c *Core) Positions(account string) ([]portfolio.Position, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ps, err := c.trading.Positions(ctx, account)
	if err != nil {
		return nil, err
	}
	out := make([]portfolio.Position, 0, len(ps))
	for _, p := range ps {
		out = append(out, portfolio.Position{Symbol: p.Contract.Symbol, Side: string(p.Side), Quantity: p.Quantity, AvgCost: p.AvgCost,
			MarketPrice: p.MarketPrice, MarketValue: p.MarketValue, UnrealizedPnL: p.UnrealizedPnL})
	}
	return out, nil
}

func (c *Core) Orders(account string) ([]portfolio.Order, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	os, err := c.trading.Orders(ctx, account, nil)
	if err != nil {
		return nil, err
	}
	var out []portfolio.Order
	for _, o := range os {
		if !o.Status.Pending() {
			continue
		}
		out = append(out, portfolio.Order{ID: o.Order.OrderID, Symbol: o.Contract.Symbol, Action: string(o.Order.Action), Type: string(o.Order.OrderType),
			Quantity: o.Order.TotalQuantity, Limit: o.Order.LmtPrice, Status: string(o.Status)})
	}
	return out, nil
}

func (c *Core) Pending() ([]portfolio.PendingCommit, error) {
	var out []portfolio.PendingCommit
	for _, p := range c.trading.Pending() {
		pc := portfolio.PendingCommit{Account: p.AccountID, Hash: p.Hash, Message: p.Message}
		for _, op := range p.Operations {
			pc.Operations = append(pc.Operations, op.Describe())
		}
		// runs inside the portfolio pane's load Cmd, never in Update
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if ev, err := c.trading.Evidence(ctx, p.AccountID, p.Hash); err == nil {
			pc.Evidence = ev.Text()
		}
		cancel()
		out = append(out, pc)
	}
	return out, nil
}

var _ portfolio.HaltCore = (*Core)(nil)

// Halt pulls the kill switch for the person at the keyboard.
func (c *Core) Halt(ctx context.Context) (string, error) {
	rep, err := c.trading.Halt(ctx, "a person in the alice UI", "palette")
	if err != nil {
		return "", err
	}
	n := 0
	for _, k := range rep.Cancelled {
		n += k
	}
	return fmt.Sprintf("trading halted: %d resting order(s) cancelled, %d commit(s) withdrawn; Resume trading lifts it", n, len(rep.Withdrawn)), nil
}

// Halted reads the kill switch (data/trading/halt.json), its time in the
// local zone.
func (c *Core) Halted() (portfolio.HaltState, error) {
	st, err := c.trading.Halted()
	if err != nil {
		return portfolio.HaltState{}, err
	}
	h := portfolio.HaltState{Halted: st.Halted, By: st.By, Reason: st.Reason}
	if !st.At.IsZero() {
		h.Since = st.At.Local()
	}
	return h, nil
}

// Resume lifts the kill switch.
func (c *Core) Resume(context.Context) (string, error) {
	if _, err := c.trading.Resume("a person in the alice UI"); err != nil {
		return "", err
	}
	return "trading resumed", nil
}

func (c *Core) Approve(ctx context.Context, account, hash string) (string, error) {
	res, err := c.trading.Push(ctx, account, hash)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("pushed %s: %d submitted, %d rejected", res.Hash, len(res.Submitted), len(res.Rejected)), nil
}

func (c *Core) Reject(ctx context.Context, account, hash, reason string) error {
	_, err := c.trading.Reject(ctx, account, hash, reason)
	return err
}

func (c *Core) TradingLog(account string, limit int) ([]portfolio.CommitLogEntry, error) {
	entries, err := c.trading.Log(account, limit, "")
	if err != nil {
		return nil, err
	}
	var out []portfolio.CommitLogEntry
	for _, e := range entries {
		ce := portfolio.CommitLogEntry{Hash: e.Hash, Message: e.Message, Time: e.Timestamp}
		for _, op := range e.Operations {
			ce.Changes = append(ce.Changes, strings.TrimSpace(op.Symbol+" "+op.Change))
		}
		out = append(out, ce)
	}
	return out, nil
}

func (c *Core) EquityCurve(account string) ([]kit.EquityPoint, error) {
	pts, err := c.trading.EquityCurve(account, time.Now().Add(-30*24*time.Hour))
	if err != nil {
		return nil, err
	}
	out := make([]kit.EquityPoint, 0, len(pts)+1)
	for _, p := range pts {
		f, _ := p.Equity.Float64()
		out = append(out, kit.EquityPoint{Time: p.Time, Equity: f})
	}
	// End the curve at the live value so it moves between snapshots (and
	// shows from the first snapshot on).
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if info, err := c.trading.Account(ctx, account); err == nil && len(out) > 0 {
		f, _ := info.NetLiquidation.Float64()
		out = append(out, kit.EquityPoint{Time: time.Now(), Equity: f})
	}
	return out, nil
}

// ---- workspaces ----

func (c *Core) Templates() []string {
	var out []string
	for _, t := range c.ws.Templates() {
		out = append(out, t.Name)
	}
	return out
}

func (c *Core) Workspaces() ([]workspaces.WorkspaceInfo, error) {
	list := c.ws.List()
	sort.SliceStable(list, func(i, j int) bool { return list[i].CreatedAt.After(list[j].CreatedAt) })
	out := make([]workspaces.WorkspaceInfo, 0, len(list))
	for _, w := range list {
		info := workspaces.WorkspaceInfo{ID: w.ID, Tag: w.Tag, Template: w.Template, Dir: w.Dir}
		for _, s := range c.ws.Sessions(w.ID) {
			st, _ := s.State()
			info.Sessions = append(info.Sessions, s.Name()+" "+string(st))
		}
		out = append(out, info)
	}
	return out, nil
}

func (c *Core) CreateWorkspace(ctx context.Context, tag, template string) (workspaces.WorkspaceInfo, error) {
	w, err := c.ws.Create(ctx, tag, template, nil)
	if err != nil {
		return workspaces.WorkspaceInfo{}, err
	}
	return workspaces.WorkspaceInfo{ID: w.ID, Tag: w.Tag, Template: w.Template, Dir: w.Dir}, nil
}

func (c *Core) StartSession(workspaceID, agent string) (workspaces.Terminal, error) {
	s, err := c.ws.StartSession(workspaceID, workspace.Agent(agent))
	if err != nil {
		return nil, err
	}
	return terminal{s}, nil
}

func (c *Core) Terminals(workspaceID string) []workspaces.Terminal {
	var out []workspaces.Terminal
	for _, s := range c.ws.Sessions(workspaceID) {
		if st, _ := s.State(); st == workspace.StateRunning || st == workspace.StateStarting || st == workspace.StateRestarting {
			out = append(out, terminal{s})
		}
	}
	return out
}

func (c *Core) Files(workspaceID, rel string) ([]workspaces.FileInfo, error) {
	fs, err := c.ws.Files(workspaceID, rel)
	if err != nil {
		return nil, err
	}
	out := make([]workspaces.FileInfo, 0, len(fs))
	for _, f := range fs {
		out = append(out, workspaces.FileInfo{Name: f.Name, IsDir: f.IsDir, Size: f.Size})
	}
	return out, nil
}

func (c *Core) GitSummary(workspaceID string) (string, error) {
	st, err := c.ws.GitStatus(workspaceID)
	if err != nil {
		return "", err
	}
	log, err := c.ws.GitLog(workspaceID, 20)
	if err != nil && !errors.Is(err, context.Canceled) {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "branch %s", st.Branch)
	if st.Clean {
		b.WriteString(" · clean\n")
	} else {
		b.WriteString("\n")
		for _, f := range st.Files {
			fmt.Fprintf(&b, "  %s%s %s\n", f.Staging, f.Worktree, f.Path)
		}
	}
	b.WriteString("\n")
	for _, cm := range log {
		fmt.Fprintf(&b, "%s %s %s (%s)\n", cm.Hash, cm.When.Format("2006-01-02 15:04"), cm.Subject, cm.Author)
	}
	return b.String(), nil
}

// terminal adapts a workspace session to tui.Terminal.
type terminal struct{ s *workspace.Session }

func (t terminal) ID() string   { return t.s.ID() }
func (t terminal) Name() string { return t.s.Name() }
func (t terminal) State() string {
	st, reason := t.s.State()
	if reason != "" {
		return string(st) + ": " + reason
	}
	return string(st)
}
func (t terminal) Render() string { return t.s.Render() }
func (t terminal) Frame() workspaces.TermFrame {
	screen, x, y, vis := t.s.Frame()
	return workspaces.TermFrame{Screen: screen, X: x, Y: y, CursorVisible: vis}
}
func (t terminal) Subscribe() (<-chan struct{}, func()) { return t.s.Subscribe() }
func (t terminal) PatchCells(dst *uv.RenderBuffer, x0, y0, cols, rows int) (int, int, bool, bool) {
	return t.s.PatchCells(dst, x0, y0, cols, rows)
}
func (t terminal) SendKey(k tea.KeyPressMsg) { t.s.SendKey(workspace.KeyPress(k.Key())) }
func (t terminal) SendText(b []byte) bool    { return t.s.SendText(b) }
func (t terminal) Paste(s string)            { t.s.Paste(s) }
func (t terminal) Resize(cols, rows int)     { t.s.Resize(cols, rows) }
func (t terminal) Attach() tea.ExecCommand   { return t.s.Attach() }
