package tui

import (
	"context"
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/activity"
	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/inbox"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/alice-trading/alice/tui/market"
	"github.com/alice-trading/alice/tui/mcppage"
	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/alice-trading/alice/tui/settings"
	"github.com/alice-trading/alice/tui/workspaces"
)

// Focus is the index of the visible pane in Model.tabs. The first four
// are fixed; panes added with AddPane get the following indices.
type Focus int

const (
	FocusChat Focus = iota
	FocusInbox
	FocusPortfolio
	FocusWorkspaces
)

// loader is a pane that fetches its data when the program starts.
type loader interface{ Load() tea.Cmd }

// modalPane is a pane whose open form takes every key but ctrl+c,
// tab and shift+tab included.
type modalPane interface{ Modal() bool }

// badger is a pane whose tab title carries a short count or marker.
type badger interface{ Badge() string }

// tab is one entry of the tab bar: a title and its pane.
type tab struct {
	Name string
	P    kit.Pane
}

// Options tune the model; zero values are fine.
type Options struct {
	Version string
	// Now is the clock (tests fix it).
	Now func() time.Time
	// Dark forces the palette until the terminal reports its background.
	Dark *bool
	// Detachable: this UI is a client of a core that outlives it, so
	// ctrl+z (and the palette) detach, and quitting stops the core.
	Detachable bool
}

// Model is the root (and only) tea.Model.
type Model struct {
	core   Core
	opts   Options
	Ctx    context.Context
	cancel context.CancelCauseFunc
	keys   kit.KeyMap
	St     kit.Styles
	now    func() time.Time

	width, height int
	Focus         Focus

	// View's caches (frame.go): the framed body lines and the tab bar,
	// drawn again only when their inputs change.
	frameLines            kit.LineCache
	edges                 edges
	tabBarKey, tabBarLine string
	reuse                 viewReuse // what the next View may keep (viewreuse.go)
	last                  lastFrame
	Tabs                  []tab
	Chat                  *chat.Pane
	Inbox                 *inbox.Pane
	Portfolio             *portfolio.Pane
	Workspaces            *workspaces.Pane
	Settings              *settings.Pane
	Market                *market.Pane
	Activity              *activity.Pane
	MCPPage               *mcppage.Pane

	Status  StatusInfo
	Toasts  kit.Toasts
	Work    kit.Progress
	Help    *helpOverlay
	Palette *palette
	Dialog  *confirmDialog
	QuitDlg *quitDialog
	// underOverlay is the pane blurred while an overlay has the keys (its
	// input draws no cursor then); set while overlaid is true.
	underOverlay Focus
	overlaid     bool
	// attachSeq is the last toast pushed while no terminal was attached.
	attachSeq int
	// quitRequested: the person quit alice (not a detach).
	quitRequested bool
	Events        <-chan any
	// ticking: a TickMsg is on its way (refresh.go: the periodic refresh
	// runs only while the focused pane shows what changes without an
	// event).
	ticking bool
}

// New builds the root model over a Core.
func New(core Core, opts Options) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	dark := true
	if opts.Dark != nil {
		dark = *opts.Dark
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	m := &Model{core: core, opts: opts, Ctx: ctx, cancel: cancel, keys: kit.DefaultKeyMap(), now: opts.Now}
	m.St = kit.NewStyles(dark)
	m.Chat = chat.New(m, core)
	m.Inbox = inbox.New(m, core)
	m.Portfolio = portfolio.New(m, core)
	m.Workspaces = workspaces.New(m, core)
	m.Settings = settings.New(m, core)
	// The tab order; a new pane is one more line here (see AddPane).
	m.AddPane("Chat", m.Chat)
	m.AddPane("Inbox", m.Inbox)
	m.AddPane("Portfolio", m.Portfolio)
	m.AddPane("Workspaces", m.Workspaces)
	m.Market, m.Activity, m.MCPPage = market.New(m, core), activity.New(m, core), mcppage.New(m, core)
	m.AddPane("Market", m.Market)
	m.AddPane("Activity", m.Activity)
	m.AddPane("MCP", m.MCPPage)
	m.AddPane("Settings", m.Settings)
	m.Chat.Focus()
	return m
}

// AddPane appends a tab and returns its index (alt+N goes to tab N).
func (m *Model) AddPane(name string, p kit.Pane) Focus {
	m.Tabs = append(m.Tabs, tab{name, p})
	// alt+N and f(N+1) reach the panes there are, and help says how many.
	n := min(len(m.Tabs), 9)
	var keys []string
	for i := 1; i <= n; i++ {
		keys = append(keys, "alt+"+strconv.Itoa(i))
	}
	for i := 1; i <= n; i++ {
		keys = append(keys, "f"+strconv.Itoa(i+1))
	}
	m.keys.Global.GoTo = key.NewBinding(key.WithKeys(keys...), key.WithHelp("alt+1…"+strconv.Itoa(n), "go to pane N"))
	return Focus(len(m.Tabs) - 1)
}

// PaneIndex finds a pane's tab; -1 when it is not in the tab bar.
func (m *Model) PaneIndex(p kit.Pane) Focus {
	for i, t := range m.Tabs {
		if t.P == p {
			return Focus(i)
		}
	}
	return -1
}

// cur is the focused pane.
func (m *Model) cur() kit.Pane { return m.Tabs[m.Focus].P }

// Close stops the event subscription (main calls it after Run returns).
// A client of a core that keeps running (Detachable) that ends without
// quitting, e.g. its terminal closed, ends as a detach: the core finishes
// the work it started for it (a chat turn).
func (m *Model) Close() {
	if m.opts.Detachable && !m.quitRequested {
		m.cancel(kit.ErrDetached)
		return
	}
	m.cancel(nil)
}

// SetPatcher hands the model the program's Patch (tea.Program.Patch), so
// an attached session's echo is drawn the moment it arrives (the
// workspaces pane's patch.go). Call before the program runs.
func (m *Model) SetPatcher(f func(tea.PatchDraw) bool) { m.Workspaces.SetPatcher(f) }

// Init starts the event bridge, loads every pane and asks the terminal for
// its background colour.
func (m *Model) Init() tea.Cmd {
	m.Events = m.core.Events(m.Ctx)
	m.ticking = true
	cmds := []tea.Cmd{m.WaitEvent(), m.LoadAll(), m.tick()}
	if m.opts.Dark == nil {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// LoadAll reads the status and every pane that loads data.
func (m *Model) LoadAll() tea.Cmd {
	cmds := []tea.Cmd{m.LoadStatus()}
	for _, t := range m.Tabs {
		if l, ok := t.P.(loader); ok {
			cmds = append(cmds, l.Load())
		}
	}
	return tea.Batch(cmds...)
}

// CoreEventMsg wraps one value from Core.Events.
type CoreEventMsg struct{ Ev any }

// WaitEvent is the single bridge from core to UI: one in-flight read,
// re-armed after each event.
func (m *Model) WaitEvent() tea.Cmd {
	ch := m.Events
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return nil
		}
		return CoreEventMsg{ev}
	}
}

type TickMsg time.Time

// statusMsg carries a fresh StatusInfo for the status bar.
type statusMsg StatusInfo

// LoadStatus reads the core's status off the UI goroutine.
func (m *Model) LoadStatus() tea.Cmd {
	core := m.core
	return func() tea.Msg { return statusMsg(core.Status()) }
}

func (m *Model) tick() tea.Cmd {
	return tea.Tick(5*time.Second, func(t time.Time) tea.Msg { return TickMsg(t) })
}

// Update routes messages: overlays first, then global keys, then the
// focused pane; core events go to the panes they concern. Afterwards it
// saves state that changed (the inbox's read marks).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	focus := m.Focus
	_, cmd := m.update(msg)
	if m.Focus != focus {
		// A pane shown again reloads now (not on the next tick): a channel
		// created in the chat is on the Settings page when it opens.
		cmd = tea.Batch(cmd, m.refreshShown(), m.LoadStatus(), m.startTicking())
	}
	if !(m.Focus == FocusWorkspaces && m.Workspaces.Attached()) {
		m.attachSeq = m.Toasts.Seq
	}
	stale := m.dropStaleDialog()
	if stale != nil {
		cmd = tea.Batch(cmd, stale)
	}
	m.blurUnderOverlay()
	m.noteReuse(msg, focus, stale == nil)
	m.Workspaces.PublishSpot(FrameLeft, FrameTop, m.Focus == FocusWorkspaces && !m.overlayOpen())
	if m.Dialog != nil {
		if settle := m.Dialog.settleCmd(m.now()); settle != nil {
			cmd = tea.Batch(cmd, settle)
		}
	}
	if save := m.Inbox.SaveCmd(); save != nil {
		cmd = tea.Batch(cmd, save)
	}
	// Input a pane handed back (keys held for a session the person left
	// before it showed) is handled now, in order, as if typed after this
	// message: before anything read later.
	if replay := m.Workspaces.TakeReplay(); len(replay) > 0 {
		cmds := []tea.Cmd{cmd}
		for _, in := range replay {
			_, c := m.Update(in)
			cmds = append(cmds, c)
		}
		cmd = tea.Batch(cmds...)
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	// While a terminal is attached every key goes to it but detach, so
	// detach dismisses a live error first (the status bar says so); the
	// next one detaches.
	if m.attachedError() && m.Workspaces.IsDetach(msg) {
		m.Toasts.Dismiss()
		return m, nil
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, m.layout()
	case tea.BackgroundColorMsg:
		m.St = kit.NewStyles(msg.IsDark())
		m.tabBarKey, m.edges = "", edges{} // drawn again in the new styles
		m.Chat.Invalidate()
		m.Workspaces.Invalidate()
		return m, nil
	case TickMsg:
		cmds := []tea.Cmd{m.LoadStatus(), m.Portfolio.Load(), m.Inbox.RenderDocs(), m.refreshPage(), m.Settings.Tick()}
		if m.ticking = m.wantsTick(); m.ticking {
			cmds = append(cmds, m.tick())
		}
		return m, tea.Batch(cmds...)
	case statusMsg:
		m.Status = StatusInfo(msg)
		return m, nil
	case CoreEventMsg:
		return m, tea.Batch(m.WaitEvent(), m.handleEvent(msg.Ev))
	case kit.ErrMsg:
		if msg.Err == nil {
			return m, nil
		}
		return m, m.Toasts.Push(kit.ToastError, kit.FriendlyError(msg.Err), m.now())
	case kit.FlashMsg:
		return m, m.Toasts.Push(kit.ToastInfo, string(msg), m.now())
	case kit.WithdrawMsg:
		m.Toasts.Withdraw(string(msg))
		return m, nil
	case kit.ToastExpiredMsg:
		m.Toasts.Expire(msg.ID)
		return m, nil
	case kit.WorkMsg:
		return m, m.Work.Update(msg)
	case workspaces.WsCreatedMsg:
		m.Work.End("workspace-create")
		return m, m.Workspaces.Update(msg)
	case kit.FocusWorkspaceMsg:
		m.SetFocus(FocusWorkspaces)
		m.Workspaces.SelectID(msg.ID)
		return m, nil
	case dialogResultMsg:
		return m, msg.then
	case dialogSettledMsg:
		return m, nil // the view shows that keys are accepted now
	case market.AskAliceMsg:
		m.SetFocus(FocusChat)
		m.Chat.Prefill(msg.Text)
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		switch {
		case m.Palette != nil:
			return m, m.Palette.update(msg)
		case m.Help != nil:
			return m, m.Help.update(msg)
		case m.Dialog != nil || m.QuitDlg != nil:
			return m, nil
		}
		return m, m.cur().Update(msg)
	case tea.MouseWheelMsg, tea.MouseClickMsg, tea.MouseReleaseMsg, tea.MouseMotionMsg:
		return m, m.handleMouse(msg)
	}
	// Pane-specific messages: offer them to every pane (each ignores the
	// ones it does not own).
	var cmds []tea.Cmd
	for _, t := range m.Tabs {
		cmds = append(cmds, t.P.Update(msg))
	}
	return m, tea.Batch(cmds...)
}

func (m *Model) handleEvent(ev any) tea.Cmd {
	switch e := ev.(type) {
	case InboxChangedEvent:
		return m.Inbox.Load()
	case TradingChangedEvent:
		var cmd tea.Cmd
		if e.ApprovalRequested {
			cmd = m.Toasts.Push(kit.ToastInfo, "A commit is waiting for your approval in Portfolio (alt+3)", m.now())
		}
		if e.MarkMoved {
			cmd = tea.Batch(cmd, m.Market.MarkMoved())
		}
		return tea.Batch(cmd, m.Portfolio.Load())
	case WorkspacesChangedEvent:
		return m.Workspaces.Load()
	case NotificationEvent:
		return m.Toasts.Push(kit.ToastInfo, "🔔 "+e.Text, m.now())
	case activity.ActivityChangedEvent:
		// Whatever the status bar shows changes with an event in the log
		// (a link down or up, a schedule added, a problem reported).
		return tea.Batch(m.Activity.Load(), m.LoadStatus())
	}
	return nil
}

// attachedError: a terminal is attached and an error that arrived since
// is live (one from before attaching does not turn the person's first
// ctrl+q into a dismiss: it was there when they chose to attach).
func (m *Model) attachedError() bool {
	return m.Focus == FocusWorkspaces && m.Toasts.ErrorSince(m.attachSeq) && m.Workspaces.Attached() && !m.overlayOpen()
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	g := m.keys.Global
	// A zoom started and not yet shown gets the keys as the session would.
	attached := m.Focus == FocusWorkspaces && (m.Workspaces.Attached() || m.Workspaces.Zooming())
	switch {
	case m.QuitDlg != nil:
		return m.QuitDlg.handle(msg)
	case m.opts.Detachable && key.Matches(msg, g.Detach) && !attached && m.QuitDlg == nil:
		return m.detach()
	case key.Matches(msg, g.Quit) && !attached:
		// ctrl+c works from every overlay (it closes them and asks).
		m.Dialog, m.Palette, m.Help = nil, nil, nil
		return m.requestQuit()
	}
	switch {
	case m.Dialog != nil:
		return m.Dialog.handle(msg, m.now())
	case m.Palette != nil:
		return m.Palette.update(msg)
	case m.Help != nil:
		return m.Help.update(msg)
	}
	cur := m.cur()
	// An attached terminal gets every key except detach (handled by the pane).
	if attached {
		return cur.Update(msg)
	}
	// The create form is modal: tab cycles templates, esc leaves.
	if m.Focus == FocusWorkspaces && m.Workspaces.Mode == workspaces.WsCreate {
		cmd := cur.Update(msg)
		if msg.String() == "enter" && cmd != nil {
			return tea.Batch(m.Work.Begin("workspace-create", "creating the workspace", m.now()), cmd)
		}
		return cmd
	}
	// A pane's open form is modal: tab moves between its fields.
	if mp, ok := cur.(modalPane); ok && mp.Modal() && !key.Matches(msg, g.Quit) {
		return cur.Update(msg)
	}
	capturing := cur.Capturing()
	switch {
	case key.Matches(msg, g.QuitQ) && !capturing:
		return m.requestQuit()
	case key.Matches(msg, g.Palette):
		m.openPalette()
		return nil
	case key.Matches(msg, g.Next):
		m.SetFocus((m.Focus + 1) % Focus(len(m.Tabs)))
		return nil
	case key.Matches(msg, g.Prev):
		m.SetFocus((m.Focus + Focus(len(m.Tabs)) - 1) % Focus(len(m.Tabs)))
		return nil
	case key.Matches(msg, g.GoTo):
		if n, ok := goToIndex(msg.String()); ok && n < len(m.Tabs) {
			m.SetFocus(Focus(n))
		}
		return nil
	case key.Matches(msg, g.Dismiss) && m.Toasts.HasError():
		m.Toasts.Dismiss()
		return nil
	case key.Matches(msg, g.Messages):
		m.openHelp(helpMessages)
		return nil
	case msg.String() == "f1" || (msg.String() == "?" && !capturing):
		m.openHelp(helpKeys)
		return nil
	}
	return cur.Update(msg)
}

func (m *Model) SetFocus(f Focus) {
	if f == m.Focus || f < 0 || int(f) >= len(m.Tabs) {
		return
	}
	m.cur().Blur()
	m.Focus = f
	m.cur().Focus()
}

// OpenDialog shows a confirmation that ignores stray keys for a grace period.
func (m *Model) OpenDialog(title, body string, onYes tea.Cmd) {
	m.Dialog = newConfirmDialog(m, title, body, onYes, m.now())
}

// OpenDialogWhile shows a confirmation that closes by itself once valid
// reports false (checked after every message).
func (m *Model) OpenDialogWhile(title, body string, onYes tea.Cmd, valid func() bool) {
	m.Dialog = newConfirmDialog(m, title, body, onYes, m.now())
	m.Dialog.valid = valid
}

// dropStaleDialog closes a dialog whose decision was taken elsewhere.
func (m *Model) dropStaleDialog() tea.Cmd {
	if m.Dialog == nil || m.Dialog.valid == nil || m.Dialog.valid() {
		return nil
	}
	m.Dialog = nil
	return m.Toasts.Push(kit.ToastInfo, "confirmation closed: it was decided elsewhere (another window or Telegram)", m.now())
}

// layout gives every pane the inside of the frame and returns the Cmd that
// resizes a live terminal.
func (m *Model) layout() tea.Cmd {
	w, h := m.BodySize()
	for _, t := range m.Tabs {
		t.P.SetSize(w, h)
	}
	return tea.Batch(m.Workspaces.ResizeTerm(), m.Inbox.RenderDocs())
}

// blurUnderOverlay blurs the focused pane while a dialog, the palette or
// help is open and focuses it again once they close, so only the
// overlay's input shows a cursor (the chat input's was drawn beside it).
func (m *Model) blurUnderOverlay() {
	open := m.overlayOpen()
	switch {
	case open && (!m.overlaid || m.underOverlay != m.Focus):
		m.cur().Blur()
		m.underOverlay, m.overlaid = m.Focus, true
	case !open && m.overlaid:
		if m.underOverlay == m.Focus {
			m.cur().Focus()
		}
		m.overlaid = false
	}
}

// overlayOpen reports whether a dialog, the palette or help has the keys.
func (m *Model) overlayOpen() bool {
	return m.Dialog != nil || m.QuitDlg != nil || m.Palette != nil || m.Help != nil
}

// View renders tabs, the framed pane, overlays, the footer and status bar.
func (m *Model) View() tea.View {
	var v tea.View
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	if m.width == 0 || m.height == 0 {
		v.Content = "starting alice…"
		return v
	}
	if m.reuse == viewSame && m.last.ok {
		return m.last.view
	}
	v.Content = m.Render()
	if m.Focus == FocusWorkspaces && !m.overlayOpen() {
		if x, y, ok := m.Workspaces.Cursor(); ok {
			v.Cursor = tea.NewCursor(x+FrameLeft, y+FrameTop)
		}
	}
	m.last.ok, m.last.view = true, v
	return v
}
