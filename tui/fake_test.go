package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"
)

var t0 = time.Date(2026, 11, 20, 14, 30, 0, 0, time.UTC)

// fakeCore is an in-memory Core for model tests and goldens.
type fakeCore struct {
	mu          sync.Mutex
	history     map[string][]ChatMessage
	script      []ChatEvent
	sendErr     error
	sent        []string
	inbox       []InboxEntry
	deleted     []string
	pending     []PendingCommit
	approved    []string
	rejected    []string
	positions   []Position
	workspace   []WorkspaceInfo
	terms       map[string][]Terminal
	events      chan any
	compacted   []string
	docBody     string
	renderWidth int
}

func newFakeCore() *fakeCore {
	return &fakeCore{
		history: map[string][]ChatMessage{},
		inbox: []InboxEntry{
			{ID: "e2", WorkspaceID: "ws1", Workspace: "research-aapl", Docs: []string{"report.md"}, Comments: "AAPL earnings summary ready", Time: t0.Add(time.Hour)},
			{ID: "e1", WorkspaceID: "ws1", Workspace: "research-aapl", Comments: "Started the research", Time: t0},
		},
		pending: []PendingCommit{{Account: "sim-paper", Hash: "4d46698f", Message: "buy AAPL", Operations: []string{"placeOrder BUY 10 AAPL (MKT)"}}},
		positions: []Position{{Symbol: "MSFT", Side: "long", Quantity: decimal.NewFromInt(5), AvgCost: decimal.RequireFromString("400"),
			MarketPrice: decimal.RequireFromString("420.50"), MarketValue: decimal.RequireFromString("2102.50"), UnrealizedPnL: decimal.RequireFromString("102.50")}},
		workspace: []WorkspaceInfo{{ID: "ws1", Tag: "research-aapl", Template: "chat", Dir: "/data/workspaces/ws1", Sessions: []string{"sh1 running"}}},
		terms:     map[string][]Terminal{},
		events:    make(chan any, 8),
	}
}

func (f *fakeCore) Status() StatusInfo {
	return StatusInfo{MainMCP: "http://127.0.0.1:3001/mcp", AskMCP: "http://127.0.0.1:3003/mcp", Provider: "mock (openai m)"}
}
func (f *fakeCore) Events(ctx context.Context) <-chan any { return f.events }
func (f *fakeCore) Sessions() ([]string, error) {
	return []string{"tui/default", "tui/research", "telegram/1"}, nil
}
func (f *fakeCore) History(s string, limit int) ([]ChatMessage, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]ChatMessage(nil), f.history[s]...), nil
}
func (f *fakeCore) Send(ctx context.Context, session, text string) (<-chan ChatEvent, error) {
	f.mu.Lock()
	f.sent = append(f.sent, session+": "+text)
	f.mu.Unlock()
	if f.sendErr != nil {
		return nil, f.sendErr
	}
	ch := make(chan ChatEvent, len(f.script))
	for _, ev := range f.script {
		ch <- ev
	}
	close(ch)
	return ch, nil
}
func (f *fakeCore) Compact(ctx context.Context, s string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.compacted = append(f.compacted, s)
	return nil
}
func (f *fakeCore) Inbox(limit int) ([]InboxEntry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]InboxEntry(nil), f.inbox...), nil
}
func (f *fakeCore) RenderInbox(id string, width int) ([]RenderedDoc, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.renderWidth = width
	body := f.docBody
	if body == "" {
		body = "# Report\nRevenue up 8%."
	}
	return []RenderedDoc{{Path: "report.md", Body: body}, {Path: "gone.md", Tombstone: "File not found at this path."}}, nil
}
func (f *fakeCore) DeleteInbox(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deleted = append(f.deleted, id)
	return nil
}
func (f *fakeCore) Accounts() ([]AccountSummary, error) {
	return []AccountSummary{{ID: "sim-paper", Label: "Simulated paper", Broker: "simulator", Health: "healthy",
		NetLiq: decimal.RequireFromString("100102.50"), Cash: decimal.RequireFromString("98000"), UnrealizedPnL: decimal.RequireFromString("102.50"), RealizedPnL: decimal.RequireFromString("-12.25")}}, nil
}
func (f *fakeCore) Positions(a string) ([]Position, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Position(nil), f.positions...), nil
}
func (f *fakeCore) Orders(a string) ([]Order, error) {
	return []Order{{ID: "mock-ord-2", Symbol: "TSLA", Action: "BUY", Type: "LMT", Quantity: decimal.NewFromInt(3), Limit: decimal.RequireFromString("240"), Status: "Submitted"}}, nil
}
func (f *fakeCore) Pending() ([]PendingCommit, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]PendingCommit(nil), f.pending...), nil
}
func (f *fakeCore) Approve(ctx context.Context, a, hash string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.staleLocked(hash); err != nil {
		return "", err
	}
	f.approved = append(f.approved, a)
	f.pending = nil
	f.positions = append(f.positions, Position{Symbol: "AAPL", Side: "long", Quantity: decimal.NewFromInt(10)})
	return "pushed 4d46698f: 1 submitted, 0 rejected", nil
}

// staleLocked refuses a decision about any commit but the pending one,
// like the real core.
func (f *fakeCore) staleLocked(hash string) error {
	if len(f.pending) == 0 || f.pending[0].Hash != hash {
		return fmt.Errorf("commit %s is no longer waiting; nothing was executed", hash)
	}
	return nil
}
func (f *fakeCore) Reject(ctx context.Context, a, hash, reason string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.staleLocked(hash); err != nil {
		return err
	}
	f.rejected = append(f.rejected, a)
	f.pending = nil
	return nil
}
func (f *fakeCore) TradingLog(a string, limit int) ([]CommitLogEntry, error) {
	return []CommitLogEntry{{Hash: "a1b2c3d4", Message: "buy MSFT", Time: t0, Changes: []string{"MSFT BUY 5 @400"}}}, nil
}
func (f *fakeCore) EquityCurve(a string) ([]EquityPoint, error) {
	var pts []EquityPoint
	for i := 0; i < 40; i++ {
		pts = append(pts, EquityPoint{Time: t0.Add(time.Duration(i) * time.Hour), Equity: 100000 + float64((i*37)%23)*10})
	}
	return pts, nil
}
func (f *fakeCore) Templates() []string { return []string{"chat", "shell-only"} }
func (f *fakeCore) Workspaces() ([]WorkspaceInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]WorkspaceInfo(nil), f.workspace...), nil
}
func (f *fakeCore) CreateWorkspace(ctx context.Context, tag, tmpl string) (WorkspaceInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if tag == "" {
		return WorkspaceInfo{}, errors.New("tag is required")
	}
	w := WorkspaceInfo{ID: "ws-" + tag, Tag: tag, Template: tmpl}
	f.workspace = append(f.workspace, w)
	return w, nil
}
func (f *fakeCore) StartSession(ws, agent string) (Terminal, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTerm{id: ws + "-" + agent, changed: make(chan struct{}, 1), screen: "$ "}
	f.terms[ws] = append(f.terms[ws], t)
	return t, nil
}
func (f *fakeCore) Terminals(ws string) []Terminal {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Terminal(nil), f.terms[ws]...)
}
func (f *fakeCore) Files(ws, rel string) ([]FileInfo, error) {
	return []FileInfo{{Name: "docs", IsDir: true}, {Name: "CLAUDE.md", Size: 812}}, nil
}
func (f *fakeCore) GitSummary(ws string) (string, error) {
	return "branch master · clean\n\n1a2b3c4 2026-11-20 14:30 chat: research-aapl (alice)", nil
}

// fakeTerm records keys and shows them on its "screen".
type fakeTerm struct {
	mu      sync.Mutex
	id      string
	keys    []string
	screen  string
	changed chan struct{}
	cols    int
	rows    int
}

func (t *fakeTerm) ID() string    { return t.id }
func (t *fakeTerm) Name() string  { return "sh1" }
func (t *fakeTerm) State() string { return "running" }
func (t *fakeTerm) Render() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.screen
}
func (t *fakeTerm) Cursor() (int, int, bool) { return 2, 0, true }
func (t *fakeTerm) Changed() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.changed
}
func (t *fakeTerm) Paste(s string)          { t.SendKey(tea.KeyPressMsg{Text: s}) }
func (t *fakeTerm) Attach() tea.ExecCommand { return nil }
func (t *fakeTerm) Resize(cols, rows int) {
	t.mu.Lock()
	t.cols, t.rows = cols, rows
	t.mu.Unlock()
}
func (t *fakeTerm) SendKey(k tea.KeyPressMsg) {
	t.mu.Lock()
	t.keys = append(t.keys, k.String())
	switch {
	case k.Code == tea.KeyEnter:
		// A tiny "shell": echo's argument appears on the next line.
		line := t.screen[strings.LastIndex(t.screen, "$ ")+2:]
		t.screen += "\n"
		if arg, ok := strings.CutPrefix(line, "echo "); ok {
			t.screen += arg + "\n"
		}
		t.screen += "$ "
	case k.Text != "":
		t.screen += k.Text
	}
	ch := t.changed
	t.mu.Unlock()
	select { // nudge like a real session: coalesced, never blocking
	case ch <- struct{}{}:
	default:
	}
}
