package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// focus names the visible pane.
type focus int

const (
	focusChat focus = iota
	focusInbox
	focusPortfolio
	focusWorkspaces
	focusMarket
	focusActivity
	focusMCP
	paneCount
)

var paneNames = [paneCount]string{"Chat", "Inbox", "Portfolio", "Workspaces", "Market", "Activity", "MCP"}

// pane is what every pane implements; the root routes keys by focus.
type pane interface {
	SetSize(w, h int)
	Focus()
	Blur()
	Update(msg tea.Msg) tea.Cmd
	View() string
	ShortHelp() []key.Binding
	// Capturing reports that the pane wants every key (typing into an
	// input, an attached terminal), so global single-letter keys are off.
	Capturing() bool
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
	chat          *chatPane
	inbox         *inboxPane
	portfolio     *portfolioPane
	workspaces    *workspacesPane
	market        *marketPane
	activity      *activityPane
	mcpPage       *mcpPane

	status   StatusInfo
	flash    string // transient message (notifications, results)
	errText  string // last error, shown until the next success
	showHelp bool
	dialog   *confirmDialog
	events   <-chan any
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
	m.chat = newChatPane(m)
	m.inbox = newInboxPane(m)
	m.portfolio = newPortfolioPane(m)
	m.workspaces = newWorkspacesPane(m)
	m.market, m.activity, m.mcpPage = newMarketPane(m), newActivityPane(m), newMCPPane(m)
	m.chat.Focus()
	return m
}

func (m *Model) panes() [paneCount]pane {
	return [paneCount]pane{m.chat, m.inbox, m.portfolio, m.workspaces, m.market, m.activity, m.mcpPage}
}

// Close stops the event subscription (main calls it after Run returns).
func (m *Model) Close() { m.cancel() }

// Init starts the event bridge, loads every pane and asks the terminal for
// its background colour.
func (m *Model) Init() tea.Cmd {
	m.events = m.core.Events(m.ctx)
	cmds := []tea.Cmd{m.waitEvent(), m.loadStatus(), m.chat.load(), m.inbox.load(), m.portfolio.load(), m.workspaces.load(), m.pagesInit(), m.tick()}
	if m.opts.Dark == nil {
		cmds = append(cmds, tea.RequestBackgroundColor)
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

// errMsg reports a failed core call in the status bar.
type errMsg struct{ err error }

// flashMsg shows a transient message in the status bar.
type flashMsg string

// focusWorkspaceMsg asks the root to show a workspace.
type focusWorkspaceMsg struct{ id string }

func errCmd(err error) tea.Cmd { return func() tea.Msg { return errMsg{err} } }

// Update routes messages: dialogs first, then global keys, then the
// focused pane; core events go to the panes they concern.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, m.layout()
	case tea.BackgroundColorMsg:
		m.st = NewStyles(msg.IsDark())
		m.chat.invalidate()
		return m, nil
	case tickMsg:
		return m, tea.Batch(m.tick(), m.loadStatus(), m.portfolio.load(), m.inbox.renderDocs())
	case statusMsg:
		m.status = StatusInfo(msg)
		return m, nil
	case coreEventMsg:
		return m, tea.Batch(m.waitEvent(), m.handleEvent(msg.ev))
	case errMsg:
		if msg.err != nil {
			m.errText = msg.err.Error()
		}
		return m, nil
	case flashMsg:
		m.flash, m.errText = string(msg), ""
		return m, nil
	case focusWorkspaceMsg:
		m.setFocus(focusWorkspaces)
		m.workspaces.selectID(msg.id)
		return m, nil
	case dialogResultMsg:
		return m, msg.then
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case askAliceMsg:
		cmd, _ := m.routePageMsg(msg)
		return m, cmd
	case tea.PasteMsg:
		return m, m.panes()[m.focus].Update(msg)
	case tea.MouseWheelMsg, tea.MouseClickMsg:
		return m, m.handleMouse(msg)
	}
	// Pane-specific messages: offer them to every pane (each ignores the
	// ones it does not own).
	var cmds []tea.Cmd
	for _, p := range m.panes() {
		cmds = append(cmds, p.Update(msg))
	}
	return m, tea.Batch(cmds...)
}

func (m *Model) handleEvent(ev any) tea.Cmd {
	switch e := ev.(type) {
	case InboxChangedEvent:
		return m.inbox.load()
	case TradingChangedEvent:
		if e.ApprovalRequested {
			m.flash = "A commit is waiting for your approval in Portfolio (alt+3)"
		}
		return m.portfolio.load()
	case WorkspacesChangedEvent:
		return m.workspaces.load()
	case NotificationEvent:
		m.flash = "🔔 " + e.Text
		return m.activity.load()
	case ActivityChangedEvent:
		return m.activity.load()
	}
	return nil
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.dialog != nil {
		return m.dialog.handle(msg, m.now())
	}
	if m.showHelp {
		m.showHelp = false
		return nil
	}
	g := m.keys.Global
	cur := m.panes()[m.focus]
	// An attached terminal gets every key except detach (handled by the pane).
	if m.focus == focusWorkspaces && m.workspaces.attached() {
		return cur.Update(msg)
	}
	// The create form is modal: tab cycles templates, esc leaves.
	if m.focus == focusWorkspaces && m.workspaces.mode == wsCreate && !key.Matches(msg, g.Quit) {
		return cur.Update(msg)
	}
	switch {
	case key.Matches(msg, g.Quit):
		m.cancel()
		return tea.Quit
	case key.Matches(msg, g.Next):
		m.setFocus((m.focus + 1) % paneCount)
		return nil
	case key.Matches(msg, g.Prev):
		m.setFocus((m.focus + paneCount - 1) % paneCount)
		return nil
	case key.Matches(msg, g.Chat):
		m.setFocus(focusChat)
		return nil
	case key.Matches(msg, g.Inbox):
		m.setFocus(focusInbox)
		return nil
	case key.Matches(msg, g.Portfolio):
		m.setFocus(focusPortfolio)
		return nil
	case key.Matches(msg, g.Workspaces):
		m.setFocus(focusWorkspaces)
		return nil
	case m.pageKey(msg):
		return nil
	case msg.String() == "f1" || (msg.String() == "?" && !cur.Capturing()):
		m.showHelp = true
		return nil
	}
	return cur.Update(msg)
}

func (m *Model) handleMouse(msg tea.Msg) tea.Cmd {
	if click, ok := msg.(tea.MouseClickMsg); ok {
		// Clicking a tab title focuses that pane.
		if click.Y == 0 {
			x := 0
			for i, name := range paneNames {
				w := ansi.StringWidth(m.tabLabel(focus(i), name)) + 1
				if click.X >= x && click.X < x+w {
					m.setFocus(focus(i))
					return nil
				}
				x += w
			}
			return nil
		}
		if m.dialog != nil || m.showHelp {
			return nil
		}
		// Body clicks go to the focused pane in pane coordinates.
		click.Y--
		return m.panes()[m.focus].Update(click)
	}
	if m.dialog != nil || m.showHelp {
		return nil
	}
	return m.panes()[m.focus].Update(msg)
}

func (m *Model) setFocus(f focus) {
	if f == m.focus {
		return
	}
	m.panes()[m.focus].Blur()
	m.focus = f
	m.panes()[f].Focus()
	if f == focusInbox {
		m.inbox.markVisibleRead()
	}
}

// openDialog shows a confirmation that ignores stray keys for a grace period.
func (m *Model) openDialog(title, body string, onYes tea.Cmd) {
	m.dialog = newConfirmDialog(m, title, body, onYes, m.now())
}

// layout gives every pane the body area (the screen minus the tab line
// and the status bar) and returns the Cmd that resizes a live terminal.
func (m *Model) layout() tea.Cmd {
	w, h := m.width, m.height-2
	if h < 3 {
		h = 3
	}
	for _, p := range m.panes() {
		p.SetSize(w, h)
	}
	return tea.Batch(m.workspaces.resizeTerm(), m.inbox.renderDocs())
}

func (m *Model) tabLabel(f focus, name string) string {
	name = m.tabName(f, name)
	label := fmt.Sprintf(" %d %s ", int(f)+1, name)
	if f == focusInbox {
		if n := m.inbox.unread(); n > 0 {
			label = fmt.Sprintf(" %d %s (%d) ", int(f)+1, name, n)
		}
	}
	if f == focusPortfolio {
		if n := len(m.portfolio.pending); n > 0 {
			label = fmt.Sprintf(" %d %s [%d pending] ", int(f)+1, name, n)
		}
	}
	return label
}

// View renders tabs, the focused pane, overlays and the status bar.
func (m *Model) View() tea.View {
	var v tea.View
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	if m.width == 0 || m.height == 0 {
		v.Content = "starting alice…"
		return v
	}
	v.Content = m.render()
	if m.focus == focusWorkspaces && m.dialog == nil && !m.showHelp {
		if x, y, ok := m.workspaces.cursor(); ok {
			v.Cursor = tea.NewCursor(x, y+1)
		}
	}
	return v
}

// render is View's content, separated so tests and benchmarks can use it.
func (m *Model) render() string {
	var tabs []string
	for i, name := range paneNames {
		label := m.tabLabel(focus(i), name)
		if focus(i) == m.focus {
			tabs = append(tabs, m.st.Selected.Render(label))
		} else {
			tabs = append(tabs, m.st.TitleDim.Render(label))
		}
	}
	title := m.st.Muted.Render(" alice " + m.opts.Version)
	tabLine := strings.Join(tabs, " ")
	if pad := m.width - ansi.StringWidth(tabLine) - ansi.StringWidth(title); pad > 0 {
		tabLine += strings.Repeat(" ", pad) + title
	}
	tabLine = ansi.Truncate(tabLine, m.width, "")
	body := m.panes()[m.focus].View()
	if m.showHelp {
		body = m.overlay(body, m.helpView())
	} else if m.dialog != nil {
		body = m.overlay(body, m.dialog.view())
	}
	return lipgloss.JoinVertical(lipgloss.Left, tabLine, fitHeight(body, m.height-2), m.statusBar())
}

// overlay centres box over the body.
func (m *Model) overlay(body, box string) string {
	return lipgloss.Place(m.width, m.height-2, lipgloss.Center, lipgloss.Center, box)
}

func (m *Model) statusBar() string {
	s := m.st
	parts := []string{s.StatusKey.Render(" MCP ") + s.StatusBar.Render(orDash(m.status.MainMCP))}
	if m.status.AskMCP != "" {
		parts = append(parts, s.StatusKey.Render(" Ask ")+s.StatusBar.Render(m.status.AskMCP))
	}
	parts = append(parts, s.StatusKey.Render(" AI ")+s.StatusBar.Render(orDash(m.status.Provider)))
	if m.focus == focusWorkspaces && m.workspaces.attached() {
		parts = append(parts, s.StatusKey.Render(" ● input ")+s.StatusBar.Render("ctrl+q detach"))
	}
	switch {
	case m.errText != "":
		parts = append(parts, s.Error.Render(" ✗ "+firstLine(m.errText)))
	case m.flash != "":
		parts = append(parts, s.StatusBar.Render(" "+firstLine(m.flash)))
	case len(m.status.Problems) > 0:
		parts = append(parts, s.Warn.Render(" ⚠ "+firstLine(m.status.Problems[0])))
	default:
		parts = append(parts, s.Muted.Render(" ? help"))
	}
	line := strings.Join(parts, s.StatusBar.Render(" "))
	line = ansi.Truncate(line, m.width, "…")
	if pad := m.width - ansi.StringWidth(line); pad > 0 {
		line += s.StatusBar.Render(strings.Repeat(" ", pad))
	}
	return line
}

func (m *Model) helpView() string {
	var b strings.Builder
	b.WriteString(m.st.Title.Render("Keys") + "\n\n")
	section := func(name string, bs []key.Binding) {
		b.WriteString(m.st.Accent.Render(name) + "\n")
		for _, k := range bs {
			h := k.Help()
			fmt.Fprintf(&b, "  %-12s %s\n", h.Key, h.Desc)
		}
		b.WriteString("\n")
	}
	g := m.keys.Global
	section("Global", append([]key.Binding{g.Next, g.Prev, g.Chat, g.Inbox, g.Portfolio, g.Workspaces}, append(defaultPageKeys().bindings(), g.Help, g.Quit)...))
	section(paneNames[m.focus], m.panes()[m.focus].ShortHelp())
	b.WriteString(m.st.Muted.Render("any key closes"))
	return m.st.Help.Render(b.String())
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// fitHeight pads or cuts s to exactly h lines.
func fitHeight(s string, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
