package tuitest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/inbox"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/alice-trading/alice/tui/workspaces"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/shopspring/decimal"
)

var T0 = time.Date(2026, 11, 20, 14, 30, 0, 0, time.UTC)

// FakeCore is an in-memory Core for model tests and goldens.
type FakeCore struct {
	Mu sync.Mutex
	// TelegramDown, when set, is reported as StatusInfo.Telegram.
	TelegramDown string
	// Schedules, Heartbeat and TelegramBot are reported in StatusInfo
	// (what quitting the core stops).
	Schedules      int
	Heartbeat      bool
	TelegramBot    bool
	Histories      map[string][]chat.ChatMessage
	Script         []chat.ChatEvent
	SendErr        error
	Sent           []string
	InboxEntries   []inbox.InboxEntry
	Deleted        []string
	PendingCommits []portfolio.PendingCommit
	Approved       []string
	Rejected       []string
	PositionList   []portfolio.Position
	// AccountIDs, when set, are the trading accounts (each with the
	// sim-paper numbers); like the real core, reads of any other account
	// fail with "unknown or disabled account". Unset: sim-paper alone.
	AccountIDs []string
	// AccountError is every account's health error (a broker's words).
	AccountError string
	Workspace    []workspaces.WorkspaceInfo
	Terms        map[string][]workspaces.Terminal
	EventCh      chan any
	Compacted    []string
	DocBody      string
	RenderWidth  int
	// Channels and the session browser (ChannelCore).
	ChannelList     []chat.ChannelInfo
	Titles          map[string]string
	DeletedSessions map[string]bool
}

func NewFakeCore() *FakeCore {
	return &FakeCore{
		Histories: map[string][]chat.ChatMessage{},
		InboxEntries: []inbox.InboxEntry{
			{ID: "e2", WorkspaceID: "ws1", Workspace: "research-aapl", Docs: []string{"report.md"}, Comments: "AAPL earnings summary ready", Time: T0.Add(time.Hour)},
			{ID: "e1", WorkspaceID: "ws1", Workspace: "research-aapl", Comments: "Started the research", Time: T0},
		},
		PendingCommits: []portfolio.PendingCommit{{Account: "sim-paper", Hash: "4d46698f", Message: "buy AAPL", Operations: []string{"placeOrder BUY 100 AAPL (MKT) DAY"},
			Evidence: "• placeOrder BUY 100 AAPL (MKT) DAY\n  staged by claude, session web/default, via tui; time in force DAY\n" +
				"  est. 18,720.00 USD at the current quote (bid 187.18 / ask 187.20)\n  position AAPL 0 → 100; cash 100,000.00 → 81,280.00\n" +
				"  max-order-value: order value 18,720.00, limit 5,000.00 → would be rejected\n  max-position-size: position 0.0% → 18.7% of equity, limit 25% → ok"}},
		PositionList: []portfolio.Position{{Symbol: "MSFT", Side: "long", Quantity: decimal.NewFromInt(5), AvgCost: decimal.RequireFromString("400"),
			MarketPrice: decimal.RequireFromString("420.50"), MarketValue: decimal.RequireFromString("2102.50"), UnrealizedPnL: decimal.RequireFromString("102.50")}},
		Workspace: []workspaces.WorkspaceInfo{{ID: "ws1", Tag: "research-aapl", Template: "chat", Dir: "/data/workspaces/ws1", Sessions: []string{"sh1 running"}}},
		Terms:     map[string][]workspaces.Terminal{},
		EventCh:   make(chan any, 8),
	}
}

func (f *FakeCore) Status() tui.StatusInfo {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return tui.StatusInfo{MainMCP: "http://127.0.0.1:3001/mcp", AskMCP: "http://127.0.0.1:3003/mcp", Provider: "mock (openai m)", Telegram: f.TelegramDown,
		Schedules: f.Schedules, Heartbeat: f.Heartbeat, TelegramBot: f.TelegramBot}
}
func (f *FakeCore) Events(ctx context.Context) <-chan any { return f.EventCh }
func (f *FakeCore) Sessions() ([]string, error) {
	return []string{"tui/default", "tui/research", "telegram/1"}, nil
}
func (f *FakeCore) History(s string, limit int) ([]chat.ChatMessage, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]chat.ChatMessage(nil), f.Histories[s]...), nil
}
func (f *FakeCore) Send(ctx context.Context, session, text string) (<-chan chat.ChatEvent, error) {
	f.Mu.Lock()
	f.Sent = append(f.Sent, session+": "+text)
	f.Mu.Unlock()
	if f.SendErr != nil {
		return nil, f.SendErr
	}
	ch := make(chan chat.ChatEvent, len(f.Script))
	for _, ev := range f.Script {
		ch <- ev
	}
	close(ch)
	return ch, nil
}
func (f *FakeCore) Compact(ctx context.Context, s string) error {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.Compacted = append(f.Compacted, s)
	return nil
}
func (f *FakeCore) Inbox(limit int) ([]inbox.InboxEntry, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]inbox.InboxEntry(nil), f.InboxEntries...), nil
}
func (f *FakeCore) RenderInbox(id string, width int) ([]inbox.RenderedDoc, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.RenderWidth = width
	body := f.DocBody
	if body == "" {
		body = "# Report\nRevenue up 8%."
	}
	return []inbox.RenderedDoc{{Path: "report.md", Body: body}, {Path: "gone.md", Tombstone: "File not found at this path."}}, nil
}
func (f *FakeCore) DeleteInbox(id string) error {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.Deleted = append(f.Deleted, id)
	return nil
}
func (f *FakeCore) Accounts() ([]portfolio.AccountSummary, error) {
	a := portfolio.AccountSummary{ID: "sim-paper", Label: "Simulated paper", Broker: "simulator", Health: "healthy",
		NetLiq: decimal.RequireFromString("100102.50"), Cash: decimal.RequireFromString("98000"), UnrealizedPnL: decimal.RequireFromString("102.50"), RealizedPnL: decimal.RequireFromString("-12.25")}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	a.Error = f.AccountError
	if f.AccountIDs == nil {
		return []portfolio.AccountSummary{a}, nil
	}
	out := []portfolio.AccountSummary{}
	for _, id := range f.AccountIDs {
		a.ID = id
		out = append(out, a)
	}
	return out, nil
}

// RemoveAccount drops an account from AccountIDs (as Settings → Accounts
// → d does in the core).
func (f *FakeCore) RemoveAccount(id string) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.AccountIDs = slices.DeleteFunc(slices.Clone(f.AccountIDs), func(s string) bool { return s == id })
}

// known refuses an account the core does not have, in the real core's words.
func (f *FakeCore) known(id string) error {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.AccountIDs != nil && !slices.Contains(f.AccountIDs, id) {
		return fmt.Errorf("unknown or disabled account %q (see listUTAs)", id)
	}
	return nil
}
func (f *FakeCore) Positions(a string) ([]portfolio.Position, error) {
	if err := f.known(a); err != nil {
		return nil, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]portfolio.Position(nil), f.PositionList...), nil
}
func (f *FakeCore) Orders(a string) ([]portfolio.Order, error) {
	if err := f.known(a); err != nil {
		return nil, err
	}
	return []portfolio.Order{{ID: "mock-ord-2", Symbol: "TSLA", Action: "BUY", Type: "LMT", Quantity: decimal.NewFromInt(3), Limit: decimal.RequireFromString("240"), Status: "Submitted"}}, nil
}
func (f *FakeCore) Pending() ([]portfolio.PendingCommit, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]portfolio.PendingCommit(nil), f.PendingCommits...), nil
}
func (f *FakeCore) Approve(ctx context.Context, a, hash string) (string, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if err := f.staleLocked(hash); err != nil {
		return "", err
	}
	f.Approved = append(f.Approved, a)
	f.PendingCommits = nil
	f.PositionList = append(f.PositionList, portfolio.Position{Symbol: "AAPL", Side: "long", Quantity: decimal.NewFromInt(10)})
	return "pushed 4d46698f: 1 submitted, 0 rejected", nil
}

// staleLocked refuses a decision about any commit but the pending one,
// like the real core.
func (f *FakeCore) staleLocked(hash string) error {
	if len(f.PendingCommits) == 0 || f.PendingCommits[0].Hash != hash {
		return fmt.Errorf("commit %s is no longer waiting; nothing was executed", hash)
	}
	return nil
}
func (f *FakeCore) Reject(ctx context.Context, a, hash, reason string) error {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if err := f.staleLocked(hash); err != nil {
		return err
	}
	f.Rejected = append(f.Rejected, a)
	f.PendingCommits = nil
	return nil
}
func (f *FakeCore) TradingLog(a string, limit int) ([]portfolio.CommitLogEntry, error) {
	if err := f.known(a); err != nil {
		return nil, err
	}
	return []portfolio.CommitLogEntry{{Hash: "a1b2c3d4", Message: "buy MSFT", Time: T0, Changes: []string{"MSFT BUY 5 @400"}}}, nil
}
func (f *FakeCore) EquityCurve(a string) ([]kit.EquityPoint, error) {
	if err := f.known(a); err != nil {
		return nil, err
	}
	var pts []kit.EquityPoint
	for i := 0; i < 40; i++ {
		pts = append(pts, kit.EquityPoint{Time: T0.Add(time.Duration(i) * time.Hour), Equity: 100000 + float64((i*37)%23)*10})
	}
	return pts, nil
}
func (f *FakeCore) Templates() []string { return []string{"chat", "shell-only"} }
func (f *FakeCore) Workspaces() ([]workspaces.WorkspaceInfo, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]workspaces.WorkspaceInfo(nil), f.Workspace...), nil
}
func (f *FakeCore) CreateWorkspace(ctx context.Context, tag, tmpl string) (workspaces.WorkspaceInfo, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if tag == "" {
		return workspaces.WorkspaceInfo{}, errors.New("tag is required")
	}
	if strings.ContainsAny(tag, " /.") {
		return workspaces.WorkspaceInfo{}, fmt.Errorf("invalid tag %q: use 1-33 characters a-z, 0-9, '-' or '_', starting with a letter or digit", tag)
	}
	w := workspaces.WorkspaceInfo{ID: "ws-" + tag, Tag: tag, Template: tmpl}
	f.Workspace = append(f.Workspace, w)
	return w, nil
}
func (f *FakeCore) StartSession(ws, agent string) (workspaces.Terminal, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	t := &FakeTerm{TermID: ws + "-" + agent, ChangedCh: make(chan struct{}, 1), Screen: "$ "}
	f.Terms[ws] = append(f.Terms[ws], t)
	return t, nil
}
func (f *FakeCore) Terminals(ws string) []workspaces.Terminal {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]workspaces.Terminal(nil), f.Terms[ws]...)
}
func (f *FakeCore) Files(ws, rel string) ([]workspaces.FileInfo, error) {
	return []workspaces.FileInfo{{Name: "docs", IsDir: true}, {Name: "CLAUDE.md", Size: 812}}, nil
}
func (f *FakeCore) GitSummary(ws string) (string, error) {
	return "branch master · clean\n\n1a2b3c4 2026-11-20 14:30 chat: research-aapl (alice)", nil
}

// FakeTerm records keys and shows them on its "screen".
type FakeTerm struct {
	Mu        sync.Mutex
	TermID    string
	Keys      []string
	Screen    string
	ChangedCh chan struct{}
	Cols      int
	Rows      int
	// TermName is the session's name ("sh1" when empty).
	TermName string
}

func (t *FakeTerm) ID() string { return t.TermID }
func (t *FakeTerm) Name() string {
	if t.TermName == "" {
		return "sh1"
	}
	return t.TermName
}
func (t *FakeTerm) State() string { return "running" }
func (t *FakeTerm) Render() string {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	return t.Screen
}
func (t *FakeTerm) Frame() workspaces.TermFrame {
	return workspaces.TermFrame{Screen: t.Render(), X: 2, Y: 0, CursorVisible: true}
}

// PatchCells makes FakeTerm a workspaces.CellPatcher that draws nothing:
// a test's patcher sees a patch happen, the cursor where Frame has it.
func (t *FakeTerm) PatchCells(*uv.RenderBuffer, int, int, int, int) (int, int, bool, bool) {
	return 2, 0, true, true
}

// Subscribe hands out ChangedCh, which the test drives.
func (t *FakeTerm) Subscribe() (<-chan struct{}, func()) {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	return t.ChangedCh, func() {}
}
func (t *FakeTerm) Paste(s string) { t.SendKey(tea.KeyPressMsg{Text: s}) }

// SendText types each character as a key, as the real session's bytes
// would read.
func (t *FakeTerm) SendText(b []byte) bool {
	for _, r := range string(b) {
		t.SendKey(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return true
}
func (t *FakeTerm) Attach() tea.ExecCommand { return nil }
func (t *FakeTerm) Resize(cols, rows int) {
	t.Mu.Lock()
	t.Cols, t.Rows = cols, rows
	t.Mu.Unlock()
}
func (t *FakeTerm) SendKey(k tea.KeyPressMsg) {
	t.Mu.Lock()
	t.Keys = append(t.Keys, k.String())
	switch {
	case k.Code == tea.KeyEnter:
		// A tiny "shell": echo's argument appears on the next line.
		line := t.Screen[strings.LastIndex(t.Screen, "$ ")+2:]
		t.Screen += "\n"
		if arg, ok := strings.CutPrefix(line, "echo "); ok {
			t.Screen += arg + "\n"
		}
		t.Screen += "$ "
	case k.Text != "":
		t.Screen += k.Text
	}
	ch := t.ChangedCh
	t.Mu.Unlock()
	select { // nudge like a real session: coalesced, never blocking
	case ch <- struct{}{}:
	default:
	}
}

// Channels: an in-memory channels.json and session titles, so the chat's
// channel commands and session browser run against the fake.

func (f *FakeCore) chans() []chat.ChannelInfo {
	if f.ChannelList == nil {
		f.ChannelList = []chat.ChannelInfo{{ID: "default", Label: "Alice", Session: "tui/default"}, {ID: "research", Label: "Research", Session: "tui/research"}}
	}
	return f.ChannelList
}

func (f *FakeCore) Channels() ([]chat.ChannelInfo, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]chat.ChannelInfo(nil), f.chans()...), nil
}

func (f *FakeCore) CreateChannel(label string) (chat.ChannelInfo, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	id := strings.ToLower(strings.Join(strings.Fields(label), "-"))
	for _, c := range f.chans() {
		if strings.EqualFold(c.Label, label) {
			return chat.ChannelInfo{}, fmt.Errorf("a channel named %q already exists", label)
		}
	}
	ch := chat.ChannelInfo{ID: id, Label: label, Session: "tui/" + id}
	f.ChannelList = append(f.chans(), ch)
	return ch, nil
}

func (f *FakeCore) RenameChannel(id, label string) error {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	for i, c := range f.chans() {
		if c.ID == id {
			f.ChannelList[i].Label = label
			return nil
		}
	}
	return fmt.Errorf("no such channel %q", id)
}

func (f *FakeCore) ArchiveChannel(id string, archived bool) error {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	for i, c := range f.chans() {
		if c.ID == id {
			f.ChannelList[i].Archived = archived
			return nil
		}
	}
	return fmt.Errorf("no such channel %q", id)
}

// BrowseSessions lists the fake's sessions: every history plus the
// channels and telegram/1, titled by the first user message.
func (f *FakeCore) BrowseSessions(query string) ([]chat.SessionRow, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	ids := []string{}
	seen := map[string]bool{}
	add := func(id string) {
		if !seen[id] && !f.DeletedSessions[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for _, c := range f.chans() {
		add(c.Session)
	}
	add("telegram/1")
	for id := range f.Histories {
		add(id)
	}
	var rows []chat.SessionRow
	for _, id := range ids {
		r := chat.SessionRow{ID: id, Title: id, LastActivity: T0}
		for _, c := range f.chans() {
			if c.Session == id {
				r.ChannelID, r.Channel, r.Archived, r.Title = c.ID, c.Label, c.Archived, c.Label
			}
		}
		for _, m := range f.Histories[id] {
			if m.Role == chat.RoleUser || m.Role == chat.RoleAssistant {
				r.Messages++
				r.Preview, r.PreviewRole = m.Text, map[chat.ChatRole]string{chat.RoleUser: "user", chat.RoleAssistant: "assistant"}[m.Role]
				if r.Messages == 1 && m.Role == chat.RoleUser {
					r.Title = m.Text
				}
			}
		}
		if t, ok := f.Titles[id]; ok && t != "" {
			r.Title, r.TitleSet = t, true
		}
		q := strings.ToLower(query)
		if q != "" && !strings.Contains(strings.ToLower(r.ID+" "+r.Title+" "+r.Channel+" "+r.Preview), q) {
			continue
		}
		rows = append(rows, r)
	}
	return rows, nil
}

func (f *FakeCore) SetSessionTitle(session, title string) error {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Titles == nil {
		f.Titles = map[string]string{}
	}
	f.Titles[session] = title
	return nil
}

func (f *FakeCore) DeleteSession(session string) error {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.DeletedSessions == nil {
		f.DeletedSessions = map[string]bool{}
	}
	f.DeletedSessions[session] = true
	delete(f.Histories, session)
	return nil
}
