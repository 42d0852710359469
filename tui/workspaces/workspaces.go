package workspaces

import (
	"time"

	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// wsMode is what the workspaces pane shows.
type wsMode int

const (
	WsList wsMode = iota
	WsCreate
	wsAttached
	wsFiles
	wsGit
	WsScroll
)

// workspacesPane lists workspaces, starts agent sessions and embeds a live
// terminal with keys forwarded (ctrl+q detaches).
type Pane struct {
	m         kit.Host
	core      Core
	w, h      int
	focused   bool
	List      []WorkspaceInfo
	Sel       int
	createErr string // why the last create failed, shown under the tag
	Mode      wsMode
	tag       textinput.Model
	template  int
	tmpls     []string                   // loaded with the list; never read from core in View
	term      Terminal                   // the session shown in the pane (attached or last attached)
	termLines kit.LineCache              // termWindow's cut of each screen line, reused while unchanged
	title     struct{ key, line string } // the attached session's title row, styled
	open      opening                    // input held while a session opens (opening.go)
	replay    []tea.Msg                  // held input handed back to the UI (TakeReplay)
	frame     TermFrame                  // term's screen and cursor as of the last change (followCursor)
	frameGen  int                        // the TermGen frame was read for
	TermGen   int                        // bumps when term changes so stale nudges are dropped
	Waiting   bool                       // a read of term's changes is in flight (Watch)
	lastNudge time.Time                  // when the last TermChangedMsg arrived (frame cap)
	forwarded bool                       // the last message was input passed to the session, nothing else
	// typed is signalled (capacity 1) when a key or paste goes to term: the
	// change it causes (the echo) skips the frame cap.
	typed    chan struct{}
	sink     *textSink // takes text typed into term from the input reader (textsink.go)
	termCols int
	termRows int
	// viewX, viewY: the session's cell shown top left. Another, larger
	// client of a shared session may size it beyond this pane; the part
	// shown follows the cursor (see termWindow).
	viewX, viewY int
	files        []FileInfo
	gitText      string
	pendingID    string
	pendingSess  string // a session to select once the list holds it (detachShown)

	details map[string]WorkspaceDetail // sessions per workspace (SessionCore only)
	Ssel    int                        // selected session within the workspace; -1 = the workspace row
	Scroll  *scrollView                // the scrollback viewer (mode wsScroll)
	back    wsMode                     // where the viewer returns to
	zoomed  bool                       // term is in full-screen zoom
	zoomQ   zoomQueue                  // the zoom started, until it ends (queueZoom)
	Diff    *diffView                  // open diff view (agents.go)
	Send    *sendLine                  // open send line (sendline.go)
	// watchedID is the attached session the alerter leaves alone (agents.go).
	watchedID string
	// patching draws an echo straight into the frame on screen (patch.go).
	patching patching
	// sub is the subscription to the watched session's changes (changes).
	sub struct {
		id     string
		ch     <-chan struct{}
		cancel func()
	}
}

type workspacesMsg struct {
	list    []WorkspaceInfo
	tmpls   []string
	details map[string]WorkspaceDetail
	err     error
}
type WsCreatedMsg struct {
	ws  WorkspaceInfo
	err error
}
type termStartedMsg struct {
	t   Terminal
	err error
}

// termListMsg answers "attach" or "zoom": the workspace's live sessions.
type termListMsg struct {
	ws    WorkspaceInfo
	terms []Terminal
	zoom  bool
}
type wsFilesMsg struct {
	files []FileInfo
	err   error
}
type wsGitMsg struct {
	text string
	err  error
}
type zoomDoneMsg struct {
	err   error
	input []byte // read after the detach key: the UI's input (replayInput)
}

func New(m kit.Host, core Core) *Pane {
	in := textinput.New()
	in.Placeholder = "research-aapl"
	in.Prompt = "tag › "
	in.CharLimit = 33
	// Without a width the placeholder is cut to its first letter (shown
	// under the cursor as a lone reverse-video "r").
	in.SetWidth(in.CharLimit + 1)
	return &Pane{m: m, core: core, tag: in, Ssel: -1, typed: make(chan struct{}, 1)}
}

func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h; p.followCursor() }

func (p *Pane) Focus() { p.focused = true }
func (p *Pane) Blur()  { p.focused = false }
func (p *Pane) Capturing() bool {
	return p.Mode == WsCreate || p.Mode == wsAttached || p.Mode == WsScroll || p.Diff != nil || p.Send != nil || p.open.on
}
func (p *Pane) Attached() bool { return p.Mode == wsAttached && p.term != nil }

// AllKeys lists every key of the pane in every mode (the help overlay;
// the footer shows the current mode's and those its core supports).
func (p *Pane) AllKeys() []key.Binding {
	k := p.m.KeyMap().Workspaces
	out := []key.Binding{k.Up, k.Down, k.Create, k.Shell, k.Claude, k.Codex, k.Attach, k.Detach, k.Zoom, k.Files, k.Git, k.Back}
	out = append(out, sessionKeys.help()...)
	out = append(out, agentKeys.Diff, agentKeys.Send)
	out = append(out, diffKeys.help()...)
	out = append(out, sendKeys.help()...)
	return append(out, scrollKeys.help()...)
}

func (p *Pane) ShortHelp() []key.Binding {
	k := p.m.KeyMap().Workspaces
	if p.Mode == WsScroll {
		return scrollKeys.help()
	}
	if h, ok := p.agentHelp(); ok {
		return h
	}
	out := []key.Binding{k.Create, k.Shell, k.Claude, k.Codex, k.Attach, k.Detach, k.Zoom, k.Files, k.Git, k.Back}
	out = append(out, p.agentListKeys()...)
	if _, ok := p.sessionCore(); ok {
		out = append(out, sessionKeys.help()...)
	}
	return out
}

func (p *Pane) Load() tea.Cmd {
	core := p.core
	sc, hasSC := p.sessionCore()
	return func() tea.Msg {
		l, err := core.Workspaces()
		var details map[string]WorkspaceDetail
		if hasSC && err == nil {
			details = map[string]WorkspaceDetail{}
			for _, w := range l {
				details[w.ID] = sc.WorkspaceDetail(w.ID)
			}
		}
		return workspacesMsg{l, core.Templates(), details, err}
	}
}

func (p *Pane) SelectID(id string) {
	p.pendingID = id
	for i, w := range p.List {
		if w.ID == id {
			p.Sel, p.pendingID, p.Ssel = i, "", -1
		}
	}
}

func workspaceKey(w WorkspaceInfo) string { return w.ID }

func (p *Pane) current() (WorkspaceInfo, bool) {
	if p.Sel < 0 || p.Sel >= len(p.List) {
		return WorkspaceInfo{}, false
	}
	return p.List[p.Sel], true
}

func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if p.holdInput(msg) || p.queueZoom(msg) {
		return nil
	}
	if cmd, ok := p.updateAgentUI(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case workspacesMsg:
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		// The cursor stays on the item, not the row number: a workspace
		// created elsewhere or a re-sort must not move K/D to another one.
		prevSess, hadSess := p.selectedSession()
		kit.Replace(&p.List, &p.Sel, msg.list, workspaceKey)
		p.tmpls, p.details = msg.tmpls, msg.details
		switch {
		case p.pendingID != "":
			p.SelectID(p.pendingID)
		case p.pendingSess != "" && p.selectSession(p.pendingSess):
			p.pendingSess = ""
		case hadSess:
			p.Ssel = -1
			for i, s := range p.sessions() {
				if s.ID == prevSess.ID {
					p.Ssel = i
				}
			}
		}
		p.Ssel = min(p.Ssel, len(p.sessions())-1)
		return tea.Batch(p.preview(), p.resizeAll())
	case WsCreatedMsg:
		if msg.err != nil {
			// Shown in the form under the tag (the form stays open).
			p.Mode, p.createErr = WsCreate, kit.FriendlyError(msg.err)
			return nil
		}
		p.Mode, p.pendingID = WsList, msg.ws.ID
		return tea.Batch(p.Load(), func() tea.Msg { return kit.FlashMsg("workspace " + msg.ws.Tag + " created") })
	case termStartedMsg:
		if msg.err != nil {
			p.endOpening(nil)
			return kit.ErrCmd(msg.err)
		}
		cmd := tea.Batch(p.attach(msg.t), p.Load())
		if p.endOpening(msg.t) {
			return tea.Batch(cmd, p.detach())
		}
		return cmd
	case openExpiredMsg:
		return p.onOpenExpired(msg)
	case detachedMsg:
		if p.Attached() {
			return nil
		}
		return kit.FlashCmd(detachedText)
	case sessionActionMsg:
		return p.onSessionAction(msg)
	case savedOutputMsg:
		return p.onSavedOutput(msg)
	case termListMsg:
		return p.onTermList(msg)
	case TermChangedMsg:
		return p.onTermChanged(msg)
	case wsFilesMsg:
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		p.files, p.Mode = msg.files, wsFiles
		return nil
	case wsGitMsg:
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		p.gitText, p.Mode = msg.text, wsGit
		return nil
	case zoomDoneMsg:
		// Full screen resized the session to the whole terminal; give it
		// the pane's size back.
		p.termCols, p.termRows, p.zoomed, p.zoomQ = 0, 0, false, nil
		p.replayInput(msg.input)
		cmd := p.ResizeTerm()
		if msg.err != nil {
			return tea.Batch(cmd, kit.ErrCmd(msg.err))
		}
		return cmd
	case tea.PasteMsg:
		switch {
		case p.Attached():
			p.term.Paste(msg.Content) // inline, like SendKey, to keep input order
			p.kick()
			p.forwarded = true
		case p.Mode == WsCreate:
			var cmd tea.Cmd
			p.tag, cmd = p.tag.Update(tea.PasteMsg{Content: kit.OneLine(msg.Content)})
			p.createErr = ""
			return cmd
		case p.Mode == WsScroll:
			return p.Scroll.paste(msg.Content)
		}
		return nil
	case tea.MouseClickMsg, tea.MouseReleaseMsg, tea.MouseWheelMsg, tea.MouseMotionMsg:
		return p.onMouse(msg.(tea.MouseMsg))
	case tea.KeyPressMsg:
		return p.onKey(msg)
	case fmt.Stringer:
		// Detach sequences the key decoder did not understand arrive raw.
		if p.Attached() && isRawDetach(msg.String()) {
			return p.detachShown()
		}
	}
	return nil
}

func (p *Pane) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.m.KeyMap().Workspaces
	switch p.Mode {
	case wsAttached:
		if isDetach(msg, k.Detach) {
			return p.detachShown()
		}
		// SendKey writes the key to the session's pty here, in Update: a
		// keystroke's write is the one piece of IO the attached pane does
		// inline, so keystroke order stays exact and the echo is not a
		// goroutine hand-off later (it blocks only while the program
		// reads no input and its pty's buffer is full, as the input pipe
		// it replaced did).
		p.term.SendKey(msg)
		p.kick()
		// Nothing on screen changes until the session answers: the
		// program draws no frame for the key (tui.Model.ViewUnchanged).
		// A frame patched since the pane last read the screen stays as
		// it is; the TermChangedMsg that follows every patch catches the
		// pane up.
		p.forwarded = true
		return nil
	case WsScroll:
		return p.onScrollKey(msg)
	case WsCreate:
		switch msg.String() {
		case "esc":
			p.Mode = WsList
			return nil
		case "enter":
			tag := strings.TrimSpace(p.tag.Value())
			tmpl := p.templates()[p.template%len(p.templates())]
			core, ctx := p.core, p.m.AppContext()
			return func() tea.Msg {
				ws, err := core.CreateWorkspace(ctx, tag, tmpl)
				return WsCreatedMsg{ws, err}
			}
		case "ctrl+t", "tab":
			p.template++
			return nil
		}
		var cmd tea.Cmd
		before := p.tag.Value()
		p.tag, cmd = p.tag.Update(msg)
		if p.tag.Value() != before {
			p.createErr = ""
		}
		return cmd
	case wsFiles, wsGit:
		if key.Matches(msg, k.Back) {
			p.Mode = WsList
		}
		return nil
	}
	if cmd, ok := p.onSessionKey(msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Up):
		p.moveUp()
		return p.preview()
	case key.Matches(msg, k.Down):
		p.moveDown()
		return p.preview()
	case key.Matches(msg, k.Create):
		p.Mode, p.template, p.createErr = WsCreate, 0, ""
		p.tag.SetValue("")
		return p.tag.Focus()
	case key.Matches(msg, k.Shell), key.Matches(msg, k.Claude), key.Matches(msg, k.Codex):
		ws, ok := p.current()
		if !ok {
			return kit.ErrCmd(fmt.Errorf("create a workspace first (n)"))
		}
		agent := map[string]string{"s": "shell", "c": "claude", "x": "codex"}[msg.String()]
		core := p.core
		if sc, ok := p.sessionCore(); ok {
			// The pty gets the pane's inner size before the child starts.
			cols, rows := p.termSize()
			return tea.Batch(p.beginOpening(), func() tea.Msg {
				t, err := sc.StartSessionSize(ws.ID, agent, cols, rows)
				return termStartedMsg{t, err}
			})
		}
		return tea.Batch(p.beginOpening(), func() tea.Msg { t, err := core.StartSession(ws.ID, agent); return termStartedMsg{t, err} })
	case key.Matches(msg, k.Attach), key.Matches(msg, k.Zoom):
		ws, ok := p.current()
		if !ok {
			return nil
		}
		core, zoom := p.core, key.Matches(msg, k.Zoom)
		if s, ok := p.selectedSession(); ok {
			if s.Term == nil || !isLive(s.State) {
				return kit.ErrCmd(fmt.Errorf("session %s is %s: R restarts it, v reads its saved output", s.Name, s.State))
			}
			return tea.Batch(p.beginOpening(), func() tea.Msg { return termListMsg{ws, []Terminal{s.Term}, zoom} })
		}
		return tea.Batch(p.beginOpening(), func() tea.Msg { return termListMsg{ws, core.Terminals(ws.ID), zoom} })
	case key.Matches(msg, k.Files):
		if ws, ok := p.current(); ok {
			core := p.core
			return func() tea.Msg { f, err := core.Files(ws.ID, "."); return wsFilesMsg{f, err} }
		}
	case key.Matches(msg, k.Git):
		if ws, ok := p.current(); ok {
			core := p.core
			return func() tea.Msg { s, err := core.GitSummary(ws.ID); return wsGitMsg{s, err} }
		}
	}
	return nil
}

func (p *Pane) templates() []string {
	if len(p.tmpls) == 0 {
		return []string{"chat"}
	}
	return p.tmpls
}

// ViewLines is View as h lines (kit.LinesPane). Attached, it is the title
// row and the session's screen, cut from lines the pane keeps between
// frames: an echo's frame joins and splits nothing.
func (p *Pane) ViewLines(h int) []string {
	if p.Mode != wsAttached {
		return kit.FitLines(strings.Split(p.View(), "\n"), h)
	}
	if p.frameGen != p.TermGen || p.patching.drawn.Load() {
		// A session shown without a change yet (zoom left), or one a
		// patch drew since the pane read it (its TermChangedMsg may come
		// later than this frame: Watch).
		p.followCursor()
	}
	if h <= 0 {
		return nil
	}
	screen := kit.FitLines(p.termWindow(p.frame.Screen), h-1)
	return append(append(make([]string, 0, h), p.titleLine()), screen...)
}

// titleLine is the attached session's title row, styled again only when
// its text or the width changed (Invalidate forgets it).
func (p *Pane) titleLine() string {
	name, state := p.term.Name(), p.term.State()
	if key := fmt.Sprint(p.w, "\x00", name, "\x00", state); key != p.title.key {
		st := p.m.Styles()
		line := st.Title.Render(name) + st.Muted.Render(" · "+state+" · ctrl+q detach")
		p.title.key, p.title.line = key, ansi.Truncate(line, p.w, "")
	}
	return p.title.line
}

// Invalidate forgets what was styled (the styles changed).
func (p *Pane) Invalidate() { p.title.key = "" }

func (p *Pane) View() string {
	st := p.m.Styles()
	switch p.Mode {
	case wsAttached:
		return strings.Join(p.ViewLines(p.h), "\n")
	case WsCreate:
		tmpls := p.templates()
		field := p.tag.View()
		if p.createErr != "" {
			field += "\n" + st.Error.Render(ansi.Wrap("✗ "+p.createErr, max(20, p.w), " "))
		}
		return kit.FitHeight(kit.Stack(st.Title.Render("New workspace"), "", field, "",
			st.Muted.Render("template: ")+st.Accent.Render(tmpls[p.template%len(tmpls)])+st.Muted.Render("  (tab to change) · enter create · esc cancel")), p.h)
	case wsFiles:
		ws, _ := p.current()
		rows := []string{st.Title.Render("Files · " + ws.Tag + " · " + ws.Dir), ""}
		for _, f := range p.files {
			name := kit.ShownLine(f.Name) // an agent named it
			if f.IsDir {
				name = st.Accent.Render(name + "/")
			}
			rows = append(rows, fmt.Sprintf("  %-40s %8d", name, f.Size))
		}
		return kit.FitHeight(strings.Join(rows, "\n")+"\n\n"+st.Muted.Render("esc back"), p.h)
	case wsGit:
		ws, _ := p.current()
		// paths and commit subjects are the agents': each line shown safe
		lines := strings.Split(p.gitText, "\n")
		for i, l := range lines {
			lines[i] = kit.ShownLine(l)
		}
		return kit.FitHeight(st.Title.Render("Git · "+ws.Tag)+"\n\n"+strings.Join(lines, "\n")+"\n\n"+st.Muted.Render("esc back"), p.h)
	case WsScroll:
		return p.Scroll.view(*st, p.w, p.h)
	}
	if v, ok := p.agentView(p.listView); ok {
		return v
	}
	if len(p.List) == 0 {
		return kit.FitHeight(kit.Stack(p.header(p.w), "", st.Muted.Render("No workspaces yet. Press n to create one (a git-initialised directory wired to alice's MCP servers).")), p.h)
	}
	return p.listView()
}

// headerKeys are the keys the list's header names.
var headerKeys = []string{"n new", "s shell", "c claude", "x codex", "enter attach", "z full screen (ctrl+q back)", "f files", "l git"}

// header is the title and the list's keys in w cells: keys that do not
// fit wrap onto further lines rather than being cut, so the zoom key's
// way back stays on screen at 80 columns.
func (p *Pane) header(w int) string {
	st := p.m.Styles()
	const title = "Workspaces"
	var lines []string
	cur := ""
	for _, k := range headerKeys {
		switch {
		case cur == "":
			cur = k
		case ansi.StringWidth(cur+" · "+k) <= w-len(title)-2 || len(lines) > 0 && ansi.StringWidth(cur+" · "+k) <= w:
			cur += " · " + k
		default:
			lines, cur = append(lines, cur), k
		}
	}
	lines = append(lines, cur)
	out := st.Title.Render(title) + st.Muted.Render("  "+lines[0])
	for _, l := range lines[1:] {
		out += "\n" + st.Muted.Render(l)
	}
	return out
}

// followCursor moves the part of the session's screen the pane shows so
// that it holds the cursor. A screen larger than the pane (a larger client
// sized the shared session) shows the part with the cursor, as tmux does
// for a smaller client: the window moves only as far as the cursor needs,
// and back to the top left when the screen fits. It runs when the screen
// changes, the pane is resized or a session is attached; View and Cursor
// read the result.
func (p *Pane) followCursor() {
	if p.term == nil {
		return
	}
	cols, rows := max(1, p.w), max(1, p.h-1)
	p.patching.drawn.Store(false) // the frame read now has every patch in it
	p.frame, p.frameGen = p.term.Frame(), p.TermGen
	x, y, screen := p.frame.X, p.frame.Y, p.frame.Screen
	screenRows := strings.Count(screen, "\n") + 1
	p.viewX = follow(p.viewX, x, cols)
	if p.viewX > 0 {
		// Never further right than the screen's right edge (or the
		// cursor) needs: once the session is back to the pane's width
		// the window returns to column 0.
		p.viewX = min(p.viewX, max(0, screenWidth(screen)-cols, x-cols+1))
	}
	p.viewY = min(follow(p.viewY, y, rows), max(0, screenRows-rows))
}

// TakeForwarded reports (once) whether the message just handled was input
// passed straight to the attached session: the pane looks the same until
// the session answers.
func (p *Pane) TakeForwarded() bool {
	f := p.forwarded
	p.forwarded = false
	return f
}

// screenWidth is the width in cells of the widest row of a rendered screen.
func screenWidth(screen string) int {
	w := 0
	for l := range strings.SplitSeq(screen, "\n") {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}

// termWindow cuts the session's screen to the part followCursor chose.
// Lines unchanged since the last redraw are not cut again (termLines).
func (p *Pane) termWindow(screen string) []string {
	cols, x := max(1, p.w), p.viewX
	lines := strings.Split(screen, "\n")
	lines = lines[min(p.viewY, len(lines)):]
	lines = p.termLines.Map(fmt.Sprint(x, cols), lines, func(l string) string {
		if x > 0 {
			l = ansi.Cut(l, x, x+cols)
		}
		return ansi.Truncate(l, cols, "")
	})
	return lines
}

// follow moves a window start so that pos is inside [start, start+size).
func follow(start, pos, size int) int {
	switch {
	case pos < start:
		return max(0, pos)
	case pos >= start+size:
		return pos - size + 1
	}
	return start
}
