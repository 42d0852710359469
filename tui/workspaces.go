package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// wsMode is what the workspaces pane shows.
type wsMode int

const (
	wsList wsMode = iota
	wsCreate
	wsAttached
	wsFiles
	wsGit
)

// termFrame bounds terminal redraws to about 30 per second.
const termFrame = 33 * time.Millisecond

// workspacesPane lists workspaces, starts agent sessions and embeds a live
// terminal with keys forwarded (ctrl+q detaches).
type workspacesPane struct {
	m         *Model
	w, h      int
	focused   bool
	list      []WorkspaceInfo
	sel       int
	mode      wsMode
	tag       textinput.Model
	template  int
	term      Terminal
	waiting   bool // a Changed() read is in flight for term
	files     []FileInfo
	gitText   string
	pendingID string
}

type workspacesMsg struct {
	list []WorkspaceInfo
	err  error
}
type wsCreatedMsg struct {
	ws  WorkspaceInfo
	err error
}
type termStartedMsg struct {
	t   Terminal
	err error
}
type termChangedMsg struct{ id string }
type wsFilesMsg struct {
	files []FileInfo
	err   error
}
type wsGitMsg struct {
	text string
	err  error
}
type zoomDoneMsg struct{ err error }

func newWorkspacesPane(m *Model) *workspacesPane {
	in := textinput.New()
	in.Placeholder = "research-aapl"
	in.Prompt = "tag › "
	in.CharLimit = 33
	return &workspacesPane{m: m, tag: in}
}

func (p *workspacesPane) SetSize(w, h int) {
	p.w, p.h = w, h
	if p.term != nil {
		cols, rows := p.termSize()
		t := p.term
		go t.Resize(cols, rows) // Resize touches the pty; keep it off the UI goroutine
	}
}

func (p *workspacesPane) termSize() (int, int) { return max(20, p.w), max(5, p.h-1) }

func (p *workspacesPane) Focus()          { p.focused = true }
func (p *workspacesPane) Blur()           { p.focused = false }
func (p *workspacesPane) Capturing() bool { return p.mode == wsCreate || p.mode == wsAttached }
func (p *workspacesPane) attached() bool  { return p.mode == wsAttached && p.term != nil }

func (p *workspacesPane) ShortHelp() []key.Binding {
	k := p.m.keys.Workspaces
	return []key.Binding{k.Create, k.Shell, k.Claude, k.Codex, k.Attach, k.Detach, k.Zoom, k.Files, k.Git, k.Back}
}

// cursor is the terminal cursor in pane coordinates when attached.
func (p *workspacesPane) cursor() (int, int, bool) {
	if !p.attached() {
		return 0, 0, false
	}
	x, y, vis := p.term.Cursor()
	return x, y + 1, vis
}

func (p *workspacesPane) load() tea.Cmd {
	core := p.m.core
	return func() tea.Msg { l, err := core.Workspaces(); return workspacesMsg{l, err} }
}

func (p *workspacesPane) selectID(id string) {
	p.pendingID = id
	for i, w := range p.list {
		if w.ID == id {
			p.sel, p.pendingID = i, ""
		}
	}
}

func (p *workspacesPane) current() (WorkspaceInfo, bool) {
	if p.sel < 0 || p.sel >= len(p.list) {
		return WorkspaceInfo{}, false
	}
	return p.list[p.sel], true
}

// watch waits for the attached terminal's next change, then sleeps one
// frame so bursts of output coalesce into one redraw.
func (p *workspacesPane) watch() tea.Cmd {
	t := p.term
	if t == nil || p.waiting {
		return nil
	}
	p.waiting = true
	return func() tea.Msg {
		<-t.Changed()
		time.Sleep(termFrame)
		return termChangedMsg{t.ID()}
	}
}

func (p *workspacesPane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case workspacesMsg:
		if msg.err != nil {
			return errCmd(msg.err)
		}
		p.list = msg.list
		if p.pendingID != "" {
			p.selectID(p.pendingID)
		}
		if p.sel >= len(p.list) {
			p.sel = max(0, len(p.list)-1)
		}
		return nil
	case wsCreatedMsg:
		if msg.err != nil {
			p.mode = wsCreate
			return errCmd(msg.err)
		}
		p.mode, p.pendingID = wsList, msg.ws.ID
		return tea.Batch(p.load(), func() tea.Msg { return flashMsg("workspace " + msg.ws.Tag + " created") })
	case termStartedMsg:
		if msg.err != nil {
			return errCmd(msg.err)
		}
		return tea.Batch(p.attach(msg.t), p.load())
	case termChangedMsg:
		if p.term == nil || msg.id != p.term.ID() {
			return nil
		}
		p.waiting = false
		return p.watch()
	case wsFilesMsg:
		if msg.err != nil {
			return errCmd(msg.err)
		}
		p.files, p.mode = msg.files, wsFiles
		return nil
	case wsGitMsg:
		if msg.err != nil {
			return errCmd(msg.err)
		}
		p.gitText, p.mode = msg.text, wsGit
		return nil
	case zoomDoneMsg:
		if p.term != nil {
			cols, rows := p.termSize()
			p.term.Resize(cols, rows)
		}
		if msg.err != nil {
			return errCmd(msg.err)
		}
		return nil
	case tea.PasteMsg:
		if p.attached() {
			p.term.Paste(msg.Content)
		}
		return nil
	case tea.KeyPressMsg:
		return p.onKey(msg)
	}
	return nil
}

func (p *workspacesPane) attach(t Terminal) tea.Cmd {
	p.term, p.mode, p.waiting = t, wsAttached, false
	cols, rows := p.termSize()
	t.Resize(cols, rows)
	return p.watch()
}

func (p *workspacesPane) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.m.keys.Workspaces
	switch p.mode {
	case wsAttached:
		if key.Matches(msg, k.Detach) {
			p.mode = wsList
			return func() tea.Msg { return flashMsg("detached; the session keeps running") }
		}
		p.term.SendKey(msg)
		return nil
	case wsCreate:
		switch msg.String() {
		case "esc":
			p.mode = wsList
			return nil
		case "enter":
			tag := strings.TrimSpace(p.tag.Value())
			tmpl := p.templates()[p.template%len(p.templates())]
			core := p.m.core
			return func() tea.Msg {
				ws, err := core.CreateWorkspace(context.Background(), tag, tmpl)
				return wsCreatedMsg{ws, err}
			}
		case "ctrl+t", "tab":
			p.template++
			return nil
		}
		var cmd tea.Cmd
		p.tag, cmd = p.tag.Update(msg)
		return cmd
	case wsFiles, wsGit:
		if key.Matches(msg, k.Back) {
			p.mode = wsList
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Up):
		if p.sel > 0 {
			p.sel--
		}
	case key.Matches(msg, k.Down):
		if p.sel < len(p.list)-1 {
			p.sel++
		}
	case key.Matches(msg, k.Create):
		p.mode, p.template = wsCreate, 0
		p.tag.SetValue("")
		return p.tag.Focus()
	case key.Matches(msg, k.Shell), key.Matches(msg, k.Claude), key.Matches(msg, k.Codex):
		ws, ok := p.current()
		if !ok {
			return errCmd(fmt.Errorf("create a workspace first (n)"))
		}
		agent := map[string]string{"s": "shell", "c": "claude", "x": "codex"}[msg.String()]
		core := p.m.core
		return func() tea.Msg { t, err := core.StartSession(ws.ID, agent); return termStartedMsg{t, err} }
	case key.Matches(msg, k.Attach):
		ws, ok := p.current()
		if !ok {
			return nil
		}
		terms := p.m.core.Terminals(ws.ID)
		if len(terms) == 0 {
			return errCmd(fmt.Errorf("no running session in %s: start one with s (shell), c (claude) or x (codex)", ws.Tag))
		}
		return p.attach(terms[len(terms)-1])
	case key.Matches(msg, k.Zoom):
		ws, ok := p.current()
		if !ok {
			return nil
		}
		terms := p.m.core.Terminals(ws.ID)
		if len(terms) == 0 {
			return errCmd(fmt.Errorf("no running session to zoom"))
		}
		p.term = terms[len(terms)-1]
		return tea.Exec(p.term.Attach(), func(err error) tea.Msg { return zoomDoneMsg{err} })
	case key.Matches(msg, k.Files):
		if ws, ok := p.current(); ok {
			core := p.m.core
			return func() tea.Msg { f, err := core.Files(ws.ID, "."); return wsFilesMsg{f, err} }
		}
	case key.Matches(msg, k.Git):
		if ws, ok := p.current(); ok {
			core := p.m.core
			return func() tea.Msg { s, err := core.GitSummary(ws.ID); return wsGitMsg{s, err} }
		}
	}
	return nil
}

func (p *workspacesPane) templates() []string {
	t := p.m.core.Templates()
	if len(t) == 0 {
		return []string{"chat"}
	}
	return t
}

func (p *workspacesPane) View() string {
	st := p.m.st
	switch p.mode {
	case wsAttached:
		title := st.Title.Render(p.term.Name()) + st.Muted.Render(" · "+p.term.State()+" · ctrl+q detach")
		return stack(ansi.Truncate(title, p.w, ""), fitHeight(clipWidth(p.term.Render(), p.w), p.h-1))
	case wsCreate:
		tmpls := p.templates()
		return fitHeight(stack(st.Title.Render("New workspace"), "", p.tag.View(), "",
			st.Muted.Render("template: ")+st.Accent.Render(tmpls[p.template%len(tmpls)])+st.Muted.Render("  (tab to change) · enter create · esc cancel")), p.h)
	case wsFiles:
		ws, _ := p.current()
		rows := []string{st.Title.Render("Files · " + ws.Tag + " · " + ws.Dir), ""}
		for _, f := range p.files {
			name := f.Name
			if f.IsDir {
				name = st.Accent.Render(name + "/")
			}
			rows = append(rows, fmt.Sprintf("  %-40s %8d", name, f.Size))
		}
		return fitHeight(strings.Join(rows, "\n")+"\n\n"+st.Muted.Render("esc back"), p.h)
	case wsGit:
		ws, _ := p.current()
		return fitHeight(st.Title.Render("Git · "+ws.Tag)+"\n\n"+p.gitText+"\n\n"+st.Muted.Render("esc back"), p.h)
	}
	header := st.Title.Render("Workspaces") + st.Muted.Render("  n new · s shell · c claude · x codex · enter attach · z zoom · f files · g git")
	if len(p.list) == 0 {
		return fitHeight(stack(header, "", st.Muted.Render("No workspaces yet. Press n to create one (a git-initialised directory wired to alice's MCP servers).")), p.h)
	}
	rows := []string{header, ""}
	for i, w := range p.list {
		sessions := st.Muted.Render("no sessions")
		if len(w.Sessions) > 0 {
			sessions = strings.Join(w.Sessions, ", ")
		}
		row := fmt.Sprintf("%-20s %-11s %s", ansi.Truncate(w.Tag, 20, "…"), w.Template, sessions)
		row = ansi.Truncate(row, p.w-2, "…")
		if i == p.sel {
			row = st.Selected.Render("› " + row)
		} else {
			row = "  " + row
		}
		rows = append(rows, row)
	}
	if ws, ok := p.current(); ok {
		rows = append(rows, "", st.Muted.Render(ws.Dir))
	}
	return fitHeight(strings.Join(rows, "\n"), p.h)
}

// clipWidth truncates every line of s to w cells.
func clipWidth(s string, w int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "")
	}
	return strings.Join(lines, "\n")
}
