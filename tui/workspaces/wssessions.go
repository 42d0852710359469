package workspaces

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// SessionInfo is one session of a workspace as the Workspaces pane lists
// it. Term is nil for a paused session (left over from an earlier run of
// alice), which RestartSession resumes.
type SessionInfo struct {
	ID      string
	Name    string
	Agent   string
	State   string
	Created time.Time
	Term    Terminal
	// AgentState and Glyph are the derived agent state (working, needs-you,
	// idle, done, errored, exited) and its shape; empty when unknown.
	AgentState, Glyph string
}

// WorkspaceDetail is what the pane shows under a workspace row.
type WorkspaceDetail struct {
	Archived bool
	Sessions []SessionInfo
}

// SessionCore is the session management the Workspaces pane uses beyond
// Core; tui/live implements it and the pane finds it by type assertion, so
// a Core without it still works (no kill/restart/archive).
type SessionCore interface {
	// StartSessionSize starts a session with its pty already cols×rows.
	StartSessionSize(workspaceID, agent string, cols, rows int) (Terminal, error)
	WorkspaceDetail(workspaceID string) WorkspaceDetail
	// StopSession ends the session's whole process tree.
	StopSession(id string) error
	// RestartSession restarts a live session or resumes a paused one.
	RestartSession(id string) (Terminal, error)
	// RemoveWorkspace stops its sessions and forgets it; the directory is
	// deleted only with removeDir.
	RemoveWorkspace(id string, removeDir bool) error
	ArchiveWorkspace(id string, archived bool) error
}

// savedOutputCore reads what a paused session printed before it stopped
// (tui/live implements it; found by type assertion).
type savedOutputCore interface {
	// SavedOutput returns the saved output as styled lines, replayed at
	// cols×rows; ok is false when nothing was saved.
	SavedOutput(sessionID string, cols, rows int) (lines []string, ok bool, err error)
}

// savedOutputMsg carries a paused session's saved output to the viewer.
type savedOutputMsg struct {
	name  string
	lines []string
	ok    bool
	err   error
}

// termScrollback is a Terminal that keeps its scrolled-off lines.
type termScrollback interface {
	// Scrollback returns them oldest first, with their attributes as SGR
	// sequences.
	Scrollback() []string
}

// termWrapped is a Terminal that knows which of its lines wrapped.
type termWrapped interface {
	// Wrapped returns, for the scrollback lines then the screen rows,
	// whether each continues on the next.
	Wrapped() []bool
}

// termMouse is a Terminal that can forward mouse events to its child.
type termMouse interface {
	// MouseReporting reports whether the child asked for mouse events.
	MouseReporting() bool
	// SendMouse forwards an event in screen cell coordinates.
	SendMouse(tea.MouseMsg)
}

// sessionKeyMap holds the session-management bindings of the Workspaces
// pane (list mode). They live here, with help text, so the pane owns them.
type sessionKeyMap struct {
	Kill, Restart, Delete, DeleteDir, Archive, Scrollback key.Binding
}

var sessionKeys = sessionKeyMap{
	Kill:       key.NewBinding(key.WithKeys("K"), key.WithHelp("K", "kill session")),
	Restart:    key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "restart/resume session")),
	Delete:     key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "delete workspace (keep dir)")),
	DeleteDir:  key.NewBinding(key.WithKeys("alt+d"), key.WithHelp("alt+d", "delete workspace and dir")),
	Archive:    key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "archive/unarchive")),
	Scrollback: key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "scrollback")),
}

func (k sessionKeyMap) help() []key.Binding {
	return []key.Binding{k.Kill, k.Restart, k.Delete, k.DeleteDir, k.Archive, k.Scrollback}
}

// sessionActionMsg reports a finished kill/restart/delete/archive.
type sessionActionMsg struct {
	text string
	err  error
}

func (p *Pane) sessionCore() (SessionCore, bool) {
	sc, ok := p.core.(SessionCore)
	return sc, ok
}

// sessions of the selected workspace (empty without a SessionCore).
func (p *Pane) sessions() []SessionInfo {
	ws, ok := p.current()
	if !ok {
		return nil
	}
	return p.details[ws.ID].Sessions
}

func (p *Pane) selectedSession() (SessionInfo, bool) {
	ss := p.sessions()
	if p.Ssel < 0 || p.Ssel >= len(ss) {
		return SessionInfo{}, false
	}
	return ss[p.Ssel], true
}

// selectSession moves the list's selection to the session id; ok is false
// when the list does not hold it (yet).
func (p *Pane) selectSession(id string) bool {
	for i, w := range p.List {
		for j, s := range p.details[w.ID].Sessions {
			if s.ID == id {
				p.Sel, p.Ssel = i, j
				return true
			}
		}
	}
	return false
}

// detachShown leaves the attached session and selects it in the list, so
// that enter re-attaches the session just left (a session started with
// s/c/x while another was selected left that other one selected). When
// the list has not loaded it yet, the next load selects it.
func (p *Pane) detachShown() tea.Cmd {
	if p.term != nil && !p.selectSession(p.term.ID()) {
		p.pendingSess = p.term.ID()
	}
	return p.detach()
}

func isLive(state string) bool {
	st, _, _ := strings.Cut(state, ":")
	return st == "running" || st == "starting" || st == "restarting"
}

// moveDown and moveUp walk workspace rows and their session rows in order.
func (p *Pane) moveDown() {
	if p.Ssel+1 < len(p.sessions()) {
		p.Ssel++
	} else if p.Sel < len(p.List)-1 {
		p.Sel, p.Ssel = p.Sel+1, -1
	}
}

func (p *Pane) moveUp() {
	switch {
	case p.Ssel >= 0:
		p.Ssel--
	case p.Sel > 0:
		p.Sel--
		p.Ssel = len(p.sessions()) - 1
	}
}

// previewTarget is the session shown in the thumbnail: the selected one,
// else the workspace's newest live session.
func (p *Pane) previewTarget() Terminal {
	if s, ok := p.selectedSession(); ok {
		return s.Term
	}
	ss := p.sessions()
	for i := len(ss) - 1; i >= 0; i-- {
		if ss[i].Term != nil && isLive(ss[i].State) {
			return ss[i].Term
		}
	}
	return nil
}

// preview points the watched terminal at the selection so the thumbnail
// redraws live (the same one-Cmd-per-shown-session watch as attach).
func (p *Pane) preview() tea.Cmd {
	if p.Mode != WsList {
		return nil
	}
	t := p.previewTarget()
	if t == nil {
		return nil
	}
	if p.term != nil && p.term.ID() == t.ID() {
		return nil
	}
	p.term, p.TermGen, p.Waiting = t, p.TermGen+1, false
	p.termCols, p.termRows = 0, 0
	return tea.Batch(p.ResizeTerm(), p.Watch())
}

// resizeAll gives every live session the pane's inner size, attached or
// not, so a session shown later is already laid out for the pane. The
// zoomed session keeps the full terminal until zoom ends.
func (p *Pane) resizeAll() tea.Cmd {
	if p.w == 0 {
		return nil
	}
	cols, rows := p.termSize()
	var terms []Terminal
	for _, d := range p.details {
		for _, s := range d.Sessions {
			if s.Term != nil && isLive(s.State) && !(p.zoomed && p.term != nil && s.Term.ID() == p.term.ID()) {
				terms = append(terms, s.Term)
			}
		}
	}
	if len(terms) == 0 {
		return nil
	}
	return func() tea.Msg {
		for _, t := range terms {
			t.Resize(cols, rows)
		}
		return nil
	}
}

// onSessionKey handles the session-management keys in list mode.
func (p *Pane) onSessionKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := sessionKeys
	if key.Matches(msg, k.Scrollback) {
		return p.openScrollback(WsList), true
	}
	sc, ok := p.sessionCore()
	if !ok {
		return nil, false
	}
	ws, hasWS := p.current()
	s, hasSess := p.selectedSession()
	done := func(text string, err error) tea.Msg { return sessionActionMsg{text, err} }
	switch {
	case key.Matches(msg, k.Kill):
		if !hasSess || s.Term == nil || !isLive(s.State) {
			return kit.ErrCmd(fmt.Errorf("select a running session (↓) to kill")), true
		}
		id, name := s.ID, s.Name
		p.m.OpenDialog("Kill session "+name+"?", "Its whole process tree is ended (SIGHUP, SIGTERM, then SIGKILL after 2 s).\nR restarts it later.",
			func() tea.Msg { return done("session "+name+" killed", sc.StopSession(id)) })
		return nil, true
	case key.Matches(msg, k.Restart):
		if !hasSess {
			return kit.ErrCmd(fmt.Errorf("select a session (↓) to restart")), true
		}
		id, name := s.ID, s.Name
		restart := func() tea.Msg { _, err := sc.RestartSession(id); return done("session "+name+" restarted", err) }
		if s.Term != nil && isLive(s.State) {
			p.m.OpenDialog("Restart session "+name+"?", "The running process is stopped and started again.", restart)
			return nil, true
		}
		return restart, true
	case key.Matches(msg, k.Delete), key.Matches(msg, k.DeleteDir):
		if !hasWS {
			return nil, true
		}
		removeDir := key.Matches(msg, k.DeleteDir)
		body := "Its sessions are stopped and it leaves the list.\nThe directory is kept: " + ws.Dir
		if removeDir {
			body = "Its sessions are stopped and its directory is DELETED:\n" + ws.Dir
		}
		id, tag := ws.ID, ws.Tag
		p.m.OpenDialog("Delete workspace "+tag+"?", body,
			func() tea.Msg { return done("workspace "+tag+" deleted", sc.RemoveWorkspace(id, removeDir)) })
		return nil, true
	case key.Matches(msg, k.Archive):
		if !hasWS {
			return nil, true
		}
		id, tag := ws.ID, ws.Tag
		if p.details[ws.ID].Archived {
			return func() tea.Msg { return done("workspace "+tag+" unarchived", sc.ArchiveWorkspace(id, false)) }, true
		}
		p.m.OpenDialog("Archive workspace "+tag+"?", "Its sessions are stopped; the directory stays. A again unarchives.",
			func() tea.Msg { return done("workspace "+tag+" archived", sc.ArchiveWorkspace(id, true)) })
		return nil, true
	}
	return nil, false
}

func (p *Pane) onSessionAction(msg sessionActionMsg) tea.Cmd {
	if msg.err != nil {
		return tea.Batch(kit.ErrCmd(msg.err), p.Load())
	}
	return tea.Batch(func() tea.Msg { return kit.FlashMsg(msg.text) }, p.Load())
}

// onMouse forwards mouse events to an attached child that asked for them;
// otherwise the wheel scrolls the scrollback. The root hands every mouse
// event over in pane coordinates; the terminal starts one row below the
// pane's title line.
func (p *Pane) onMouse(msg tea.MouseMsg) tea.Cmd {
	m := msg.Mouse()
	switch p.Mode {
	case WsScroll:
		if _, ok := msg.(tea.MouseWheelMsg); ok && p.Scroll.wheel(m.Button) {
			p.Mode, p.Scroll = p.back, nil
		}
		return nil
	case wsAttached:
		m.Y-- // the title line
		if tm, ok := p.term.(termMouse); ok && tm.MouseReporting() {
			if m.X >= 0 && m.Y >= 0 {
				switch msg.(type) {
				case tea.MouseClickMsg:
					tm.SendMouse(tea.MouseClickMsg(m))
				case tea.MouseReleaseMsg:
					tm.SendMouse(tea.MouseReleaseMsg(m))
				case tea.MouseWheelMsg:
					tm.SendMouse(tea.MouseWheelMsg(m))
				case tea.MouseMotionMsg:
					tm.SendMouse(tea.MouseMotionMsg(m))
				}
			}
			return nil
		}
		if _, ok := msg.(tea.MouseWheelMsg); ok && m.Button == tea.MouseWheelUp {
			cmd := p.openScrollback(wsAttached)
			if p.Scroll != nil {
				p.Scroll.wheelExit = true
				p.Scroll.wheel(m.Button)
			}
			return cmd
		}
	}
	return nil
}

// openScrollback shows the viewer over the shown session's scrollback and
// screen; esc returns to from.
func (p *Pane) openScrollback(from wsMode) tea.Cmd {
	t := p.term
	if from == WsList {
		t = p.previewTarget()
	}
	if t == nil {
		if s, ok := p.selectedSession(); ok && from == WsList && s.Term == nil {
			return p.openSaved(s)
		}
		return kit.ErrCmd(fmt.Errorf("no session to read: select one with ↓"))
	}
	var lines []string
	var wrapped []bool
	if tw, ok := t.(termWrapped); ok {
		wrapped = tw.Wrapped()
	}
	if sb, ok := t.(termScrollback); ok {
		lines = sb.Scrollback()
	}
	screen := strings.Split(t.Render(), "\n")
	if len(wrapped) != len(lines)+len(screen) {
		wrapped = nil // output arrived in between: copy without joining
	}
	for len(screen) > 0 && strings.TrimSpace(ansi.Strip(screen[len(screen)-1])) == "" {
		screen = screen[:len(screen)-1]
	}
	lines = append(lines, screen...)
	p.Scroll = newScrollView(t.Name(), lines)
	if wrapped != nil {
		p.Scroll.wrapped = wrapped[:len(lines)]
	}
	p.back, p.Mode = from, WsScroll
	return nil
}

// listView is the workspace list with session rows and, when the pane is
// wide enough, a live preview of the selected session beside it.
func (p *Pane) listView() string {
	st := p.m.Styles()
	listW := p.w
	showPreview := p.w >= 90 && p.term != nil && p.previewTarget() != nil
	if showPreview {
		listW = p.w * 45 / 100
	}
	rows := []string{p.header(listW), ""}
	for i, w := range p.List {
		d, hasDetail := p.details[w.ID]
		sessions := st.Muted.Render("no sessions")
		switch {
		case hasDetail && len(d.Sessions) > 0:
			var parts []string
			for _, s := range d.Sessions {
				parts = append(parts, strings.TrimLeft(p.sessionGlyph(s)+" "+s.Name, " ")+" "+sessionStateText(s))
			}
			sessions = strings.Join(parts, ", ")
		case !hasDetail && len(w.Sessions) > 0:
			sessions = strings.Join(w.Sessions, ", ")
		}
		if d.Archived {
			sessions += st.Muted.Render(" · archived")
		}
		row := fmt.Sprintf("%-20s %-11s %s", ansi.Truncate(w.Tag, 20, "…"), w.Template, sessions)
		rows = append(rows, p.selRow(ansi.Truncate(row, listW-2, "…"), i == p.Sel && p.Ssel < 0))
		for j, s := range d.Sessions {
			row := fmt.Sprintf("%s %-5s %-11s %-7s %s", p.sessionGlyph(s), s.Name, sessionStateText(s), s.Agent, age(p.m.Clock().Sub(s.Created)))
			rows = append(rows, p.selRow(ansi.Truncate(row, listW-2, "…"), i == p.Sel && j == p.Ssel))
		}
	}
	if ws, ok := p.current(); ok {
		rows = append(rows, "", st.Muted.Render(ansi.Truncate(ws.Dir, listW, "…")))
	}
	list := kit.FitHeight(strings.Join(rows, "\n"), p.h)
	if !showPreview {
		return list
	}
	pw, ph := p.w-listW-1, p.h
	screen := strings.Split(p.term.Render(), "\n")
	for len(screen) > 0 && strings.TrimSpace(ansi.Strip(screen[len(screen)-1])) == "" {
		screen = screen[:len(screen)-1]
	}
	if len(screen) > ph-1 {
		screen = screen[len(screen)-(ph-1):]
	}
	box := kit.Stack(st.Title.Render(ansi.Truncate("preview · "+p.term.Name()+" · "+p.term.State(), pw, "…")),
		kit.FitHeight(clipPreview(strings.Join(screen, "\n"), pw), ph-1))
	left := strings.Split(list, "\n")
	right := strings.Split(kit.FitHeight(box, ph), "\n")
	out := make([]string, ph)
	for i := range out {
		l := left[i]
		if pad := listW - ansi.StringWidth(l); pad > 0 {
			l += strings.Repeat(" ", pad)
		}
		out[i] = ansi.Truncate(l, listW, "") + st.Muted.Render("│") + right[i] + "\x1b[m"
	}
	return strings.Join(out, "\n")
}

func (p *Pane) selRow(row string, selected bool) string {
	if selected {
		return p.m.Styles().Selected.Render("› " + row)
	}
	return "  " + row
}

// age is a compact duration: 45s, 12m, 3h, 2d.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(0, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// clipPreview cuts each preview line to w cells, marking with "…" a line
// whose text goes past the edge (the preview is narrower than the
// session's screen); the blanks padding a row to the session's width are
// not text.
func clipPreview(s string, w int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		tail := "…"
		if ansi.StringWidth(strings.TrimRight(ansi.Strip(l), " ")) <= w {
			tail = ""
		}
		lines[i] = ansi.Truncate(l, w, tail)
	}
	return strings.Join(lines, "\n")
}

// openSaved reads a paused session's saved output (a Cmd: it reads a
// file) for the read-only viewer; restarting it is R's job.
func (p *Pane) openSaved(s SessionInfo) tea.Cmd {
	sc, ok := p.core.(savedOutputCore)
	if !ok {
		return kit.ErrCmd(fmt.Errorf("session %s is %s and its output cannot be read here: R restarts it", s.Name, s.State))
	}
	cols, rows := p.termSize()
	return func() tea.Msg {
		lines, ok, err := sc.SavedOutput(s.ID, cols, rows)
		return savedOutputMsg{name: s.Name, lines: lines, ok: ok, err: err}
	}
}

func (p *Pane) onSavedOutput(msg savedOutputMsg) tea.Cmd {
	switch {
	case msg.err != nil:
		return kit.ErrCmd(msg.err)
	case !msg.ok:
		return kit.ErrCmd(fmt.Errorf("session %s is paused and none of its output was saved (only shell sessions keep their scrollback when alice stops): R restarts it", msg.name))
	}
	p.Scroll = newScrollView(msg.name+" · paused, saved output (read-only; R restarts it)", msg.lines)
	p.back, p.Mode = WsList, WsScroll
	return nil
}
