package tui

import (
	"context"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// focus is the index of the visible pane in Model.tabs. The first four
// are fixed; panes added with addPane get the following indices.
type focus int

const (
	focusChat focus = iota
	focusInbox
	focusPortfolio
	focusWorkspaces
)

// loader is a pane that fetches its data when the program starts.
type loader interface{ load() tea.Cmd }

// modalPane is a pane whose open form takes every key but ctrl+c,
// tab and shift+tab included.
type modalPane interface{ modal() bool }

// badger is a pane whose tab title carries a short count or marker.
type badger interface{ Badge() string }

// tab is one entry of the tab bar: a title and its pane.
type tab struct {
	name string
	p    pane
}

// Options tune the model; zero values are fine.
type Options struct {
	Version string
	// Now is the clock (tests fix it).
	Now func() time.Time
	// Dark forces the palette until the terminal reports its background.
	Dark *bool
}

// Model is the root (and only) tea.Model.
type Model struct {
	core   Core
	opts   Options
	ctx    context.Context
	cancel context.CancelFunc
	keys   KeyMap
	st     Styles
	now    func() time.Time

	width, height int
	focus         focus
	tabs          []tab
	chat          *chatPane
	inbox         *inboxPane
	portfolio     *portfolioPane
	workspaces    *workspacesPane
	settings      *settingsPane
	market        *marketPane
	activity      *activityPane
	mcpPage       *mcpPane

	status  StatusInfo
	toasts  toasts
	work    progress
	help    *helpOverlay
	palette *palette
	dialog  *confirmDialog
	quitDlg *quitDialog
	events  <-chan any
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
	ctx, cancel := context.WithCancel(context.Background())
	m := &Model{core: core, opts: opts, ctx: ctx, cancel: cancel, keys: DefaultKeyMap(), now: opts.Now}
	m.st = NewStyles(dark)
	m.chat = newChatPane(m, core)
	m.inbox = newInboxPane(m, core)
	m.portfolio = newPortfolioPane(m, core)
	m.workspaces = newWorkspacesPane(m, core)
	m.settings = newSettingsPane(m, core)
	// The tab order; a new pane is one more line here (see addPane).
	m.addPane("Chat", m.chat)
	m.addPane("Inbox", m.inbox)
	m.addPane("Portfolio", m.portfolio)
	m.addPane("Workspaces", m.workspaces)
	m.market, m.activity, m.mcpPage = newMarketPane(m, core), newActivityPane(m, core), newMCPPane(m, core)
	m.addPane("Market", m.market)
	m.addPane("Activity", m.activity)
	m.addPane("MCP", m.mcpPage)
	m.addPane("Settings", m.settings)
	m.chat.Focus()
	return m
}

// addPane appends a tab and returns its index (alt+N goes to tab N).
func (m *Model) addPane(name string, p pane) focus {
	m.tabs = append(m.tabs, tab{name, p})
	return focus(len(m.tabs) - 1)
}

// paneIndex finds a pane's tab; -1 when it is not in the tab bar.
func (m *Model) paneIndex(p pane) focus {
	for i, t := range m.tabs {
		if t.p == p {
			return focus(i)
		}
	}
	return -1
}

// cur is the focused pane.
func (m *Model) cur() pane { return m.tabs[m.focus].p }

// Close stops the event subscription (main calls it after Run returns).
func (m *Model) Close() { m.cancel() }

// Init starts the event bridge, loads every pane and asks the terminal for
// its background colour.
func (m *Model) Init() tea.Cmd {
	m.events = m.core.Events(m.ctx)
	cmds := []tea.Cmd{m.waitEvent(), m.loadAll(), m.tick()}
	if m.opts.Dark == nil {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// loadAll reads the status and every pane that loads data.
func (m *Model) loadAll() tea.Cmd {
	cmds := []tea.Cmd{m.loadStatus()}
	for _, t := range m.tabs {
		if l, ok := t.p.(loader); ok {
			cmds = append(cmds, l.load())
		}
	}
	return tea.Batch(cmds...)
}

// coreEventMsg wraps one value from Core.Events.
type coreEventMsg struct{ ev any }

// waitEvent is the single bridge from core to UI: one in-flight read,
// re-armed after each event.
func (m *Model) waitEvent() tea.Cmd {
	ch := m.events
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return nil
		}
		return coreEventMsg{ev}
	}
}

type tickMsg time.Time

// statusMsg carries a fresh StatusInfo for the status bar.
type statusMsg StatusInfo

// loadStatus reads the core's status off the UI goroutine.
func (m *Model) loadStatus() tea.Cmd {
	core := m.core
	return func() tea.Msg { return statusMsg(core.Status()) }
}

func (m *Model) tick() tea.Cmd {
	return tea.Tick(5*time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// Update routes messages: overlays first, then global keys, then the
// focused pane; core events go to the panes they concern. Afterwards it
// saves state that changed (the inbox's read marks).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := m.update(msg)
	if save := m.inbox.saveCmd(); save != nil {
		return m, tea.Batch(cmd, save)
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, m.layout()
	case tea.BackgroundColorMsg:
		m.st = NewStyles(msg.IsDark())
		m.chat.invalidate()
		return m, nil
	case tickMsg:
		return m, tea.Batch(m.tick(), m.loadStatus(), m.portfolio.load(), m.inbox.renderDocs(), m.refreshPage(), m.settings.tick())
	case statusMsg:
		m.status = StatusInfo(msg)
		return m, nil
	case coreEventMsg:
		return m, tea.Batch(m.waitEvent(), m.handleEvent(msg.ev))
	case errMsg:
		if msg.err == nil {
			return m, nil
		}
		return m, m.toasts.push(toastError, friendlyError(msg.err), m.now())
	case flashMsg:
		return m, m.toasts.push(toastInfo, string(msg), m.now())
	case toastExpiredMsg:
		m.toasts.expire(msg.id)
		return m, nil
	case workMsg:
		return m, m.work.update(msg)
	case wsCreatedMsg:
		m.work.end("workspace-create")
		return m, m.workspaces.Update(msg)
	case focusWorkspaceMsg:
		m.setFocus(focusWorkspaces)
		m.workspaces.selectID(msg.id)
		return m, nil
	case dialogResultMsg:
		return m, msg.then
	case askAliceMsg:
		m.setFocus(focusChat)
		m.chat.prefill(msg.text)
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		switch {
		case m.palette != nil:
			return m, m.palette.update(msg)
		case m.help != nil:
			return m, m.help.update(msg)
		case m.dialog != nil || m.quitDlg != nil:
			return m, nil
		}
		return m, m.cur().Update(msg)
	case tea.MouseWheelMsg, tea.MouseClickMsg, tea.MouseReleaseMsg, tea.MouseMotionMsg:
		return m, m.handleMouse(msg)
	}
	// Pane-specific messages: offer them to every pane (each ignores the
	// ones it does not own).
	var cmds []tea.Cmd
	for _, t := range m.tabs {
		cmds = append(cmds, t.p.Update(msg))
	}
	return m, tea.Batch(cmds...)
}

func (m *Model) handleEvent(ev any) tea.Cmd {
	switch e := ev.(type) {
	case InboxChangedEvent:
		return m.inbox.load()
	case TradingChangedEvent:
		var cmd tea.Cmd
		if e.ApprovalRequested {
			cmd = m.toasts.push(toastInfo, "A commit is waiting for your approval in Portfolio (alt+3)", m.now())
		}
		return tea.Batch(cmd, m.portfolio.load())
	case WorkspacesChangedEvent:
		return m.workspaces.load()
	case NotificationEvent:
		return m.toasts.push(toastInfo, "🔔 "+e.Text, m.now())
	case ActivityChangedEvent:
		return m.activity.load()
	}
	return nil
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	g := m.keys.Global
	attached := m.focus == focusWorkspaces && m.workspaces.attached()
	switch {
	case m.quitDlg != nil:
		return m.quitDlg.handle(msg)
	case key.Matches(msg, g.Quit) && !attached:
		// ctrl+c works from every overlay (it closes them and asks).
		m.dialog, m.palette, m.help = nil, nil, nil
		return m.requestQuit()
	}
	switch {
	case m.dialog != nil:
		return m.dialog.handle(msg, m.now())
	case m.palette != nil:
		return m.palette.update(msg)
	case m.help != nil:
		return m.help.update(msg)
	}
	cur := m.cur()
	// An attached terminal gets every key except detach (handled by the pane).
	if attached {
		return cur.Update(msg)
	}
	// The create form is modal: tab cycles templates, esc leaves.
	if m.focus == focusWorkspaces && m.workspaces.mode == wsCreate {
		cmd := cur.Update(msg)
		if msg.String() == "enter" && cmd != nil {
			return tea.Batch(m.work.begin("workspace-create", "creating the workspace", m.now()), cmd)
		}
		return cmd
	}
	// A pane's open form is modal: tab moves between its fields.
	if mp, ok := cur.(modalPane); ok && mp.modal() && !key.Matches(msg, g.Quit) {
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
		m.setFocus((m.focus + 1) % focus(len(m.tabs)))
		return nil
	case key.Matches(msg, g.Prev):
		m.setFocus((m.focus + focus(len(m.tabs)) - 1) % focus(len(m.tabs)))
		return nil
	case key.Matches(msg, g.GoTo):
		if n, ok := goToIndex(msg.String()); ok && n < len(m.tabs) {
			m.setFocus(focus(n))
		}
		return nil
	case key.Matches(msg, g.Dismiss) && m.toasts.hasError():
		m.toasts.dismiss()
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

func (m *Model) setFocus(f focus) {
	if f == m.focus || f < 0 || int(f) >= len(m.tabs) {
		return
	}
	m.cur().Blur()
	m.focus = f
	m.cur().Focus()
	if f == focusInbox {
		m.inbox.markVisibleRead()
	}
}

// openDialog shows a confirmation that ignores stray keys for a grace period.
func (m *Model) openDialog(title, body string, onYes tea.Cmd) {
	m.dialog = newConfirmDialog(m, title, body, onYes, m.now())
}

// layout gives every pane the inside of the frame and returns the Cmd that
// resizes a live terminal.
func (m *Model) layout() tea.Cmd {
	w, h := m.bodySize()
	for _, t := range m.tabs {
		t.p.SetSize(w, h)
	}
	return tea.Batch(m.workspaces.resizeTerm(), m.inbox.renderDocs())
}

// overlayOpen reports whether a dialog, the palette or help has the keys.
func (m *Model) overlayOpen() bool {
	return m.dialog != nil || m.quitDlg != nil || m.palette != nil || m.help != nil
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
	v.Content = m.render()
	if m.focus == focusWorkspaces && !m.overlayOpen() {
		if x, y, ok := m.workspaces.cursor(); ok {
			v.Cursor = tea.NewCursor(x+frameLeft, y+frameTop)
		}
	}
	return v
}
