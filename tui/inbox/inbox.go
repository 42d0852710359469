package inbox

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/core/mdterm"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// inboxPane lists what workspace agents pushed, newest first, and renders
// the pointed files live in a detail view.
type Pane struct {
	m       kit.Host
	core    Core
	w, h    int
	focused bool
	Entries []InboxEntry
	seen    map[string]bool // ids the user has seen (persisted through InboxReadCore)
	// Read-mark persistence: loaded once, saved one at a time when dirty.
	seenLoaded, dirty, saving bool
	md                        *mdterm.Renderer
	mdW                       int
	mdCache                   map[string]string
	Sel                       int
	detail                    bool
	docs                      []RenderedDoc
	docsFor                   string
	scroll                    int
}

type inboxLoadedMsg struct {
	entries []InboxEntry
	err     error
}
type inboxDocsMsg struct {
	id   string
	docs []RenderedDoc
	err  error
}

func New(m kit.Host, core Core) *Pane {
	return &Pane{m: m, core: core, seen: map[string]bool{}}
}

func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h }

// RenderDocs asks the core to render the open entry's files at the pane's
// width; it runs on open, on every inbox reload and on the periodic tick,
// so the detail view follows the files as agents edit them.
func (p *Pane) RenderDocs() tea.Cmd {
	if !p.detail || p.docsFor == "" {
		return nil
	}
	core, id, w := p.core, p.docsFor, max(20, p.w-4)
	return func() tea.Msg {
		d, err := core.RenderInbox(id, w)
		return inboxDocsMsg{id, d, err}
	}
}
func (p *Pane) Focus()          { p.focused = true }
func (p *Pane) Blur()           { p.focused = false }
func (p *Pane) Capturing() bool { return false }
func (p *Pane) ShortHelp() []key.Binding {
	k := p.m.KeyMap().Inbox
	return []key.Binding{k.Up, k.Down, k.Open, k.Back, k.Delete, k.Jump, k.ReadAll}
}

func (p *Pane) Load() tea.Cmd {
	core := p.core
	list := func() tea.Msg {
		e, err := core.Inbox(1000)
		return inboxLoadedMsg{e, err}
	}
	if !p.seenLoaded {
		return tea.Batch(p.loadSeen(), list)
	}
	return list
}

func (p *Pane) Unread() int {
	n := 0
	for _, e := range p.Entries {
		if !p.seen[e.ID] {
			n++
		}
	}
	return n
}

// An entry is read when it is opened (enter), or with m: showing the pane
// or moving the cursor over an entry does not mark it read.

func (p *Pane) selected() (InboxEntry, bool) {
	if p.Sel < 0 || p.Sel >= len(p.Entries) {
		return InboxEntry{}, false
	}
	return p.Entries[p.Sel], true
}

func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case inboxLoadedMsg:
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		kit.Replace(&p.Entries, &p.Sel, msg.entries, func(e InboxEntry) string { return e.ID })
		if p.detail {
			return p.RenderDocs() // live: files may have changed since opening
		}
		return nil
	case inboxSeenMsg:
		return p.onSeen(msg)
	case inboxSavedMsg:
		p.saving = false
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		return nil
	case inboxDocsMsg:
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		if msg.id == p.docsFor {
			p.docs = msg.docs
		}
		return nil
	case tea.KeyPressMsg:
		return p.onKey(msg)
	case tea.MouseWheelMsg:
		down := msg.Button == tea.MouseWheelDown
		switch {
		case p.detail && down:
			p.scroll = min(p.scroll+1, p.maxScroll())
		case p.detail:
			p.scroll = max(0, p.scroll-1)
		case down && p.Sel < len(p.Entries)-1:
			p.Sel++
		case !down && p.Sel > 0:
			p.Sel--
		}
	case tea.MouseClickMsg:
		// Y is relative to the pane; row 0 is the header.
		if i := p.windowStart() + msg.Y - 1; !p.detail && msg.Y >= 1 && i < len(p.Entries) {
			p.Sel = i
		}
	}
	return nil
}

// windowStart is the first listed row, keeping the selection visible.
func (p *Pane) windowStart() int {
	if bodyH := max(1, p.h-1); p.Sel >= bodyH {
		return p.Sel - bodyH + 1
	}
	return 0
}

func (p *Pane) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.m.KeyMap().Inbox
	switch {
	case key.Matches(msg, k.Back) && p.detail:
		p.detail, p.scroll = false, 0
	case key.Matches(msg, k.Up):
		if p.detail {
			p.scroll = max(0, p.scroll-1)
		} else if p.Sel > 0 {
			p.Sel--
		}
	case key.Matches(msg, k.Down):
		if p.detail {
			p.scroll = min(p.scroll+1, p.maxScroll())
		} else if p.Sel < len(p.Entries)-1 {
			p.Sel++
		}
	case key.Matches(msg, k.Open):
		e, ok := p.selected()
		if !ok {
			return nil
		}
		p.detail, p.scroll, p.docs, p.docsFor = true, 0, nil, e.ID
		p.markSeen(e.ID)
		return p.RenderDocs()
	case key.Matches(msg, k.Delete):
		e, ok := p.selected()
		if !ok {
			return nil
		}
		core := p.core
		p.m.OpenDialog("Delete inbox entry?", fmt.Sprintf("From %s: %s", e.Workspace, summary(e)), func() tea.Msg {
			if err := core.DeleteInbox(e.ID); err != nil {
				return kit.ErrMsg{Err: err}
			}
			return kit.FlashMsg("inbox entry deleted")
		})
		p.detail = false
	case key.Matches(msg, k.ReadAll):
		for _, e := range p.Entries {
			p.markSeen(e.ID)
		}
	case key.Matches(msg, k.Jump):
		if e, ok := p.selected(); ok {
			id := e.WorkspaceID
			return func() tea.Msg { return kit.FocusWorkspaceMsg{ID: id} }
		}
	}
	return nil
}

func summary(e InboxEntry) string {
	s := plainSummary(kit.FirstLine(strings.TrimSpace(e.Comments)))
	if s == "" && len(e.Docs) > 0 {
		s = strings.Join(e.Docs, ", ")
	}
	return s
}

func (p *Pane) View() string {
	st := p.m.Styles()
	header := st.Title.Render("Inbox") + st.Muted.Render(" · "+kit.Plural(len(p.Entries), "entry")+" · "+fmt.Sprintf("%d unread", p.Unread()))
	bodyH := max(1, p.h-1)
	if p.detail {
		return kit.Stack(header, kit.FitHeight(p.detailView(), bodyH))
	}
	if len(p.Entries) == 0 {
		return kit.Stack(header, kit.FitHeight(st.Muted.Render("Nothing yet. Agents in workspaces push here with the inbox_push tool."), bodyH))
	}
	start := p.windowStart()
	var rows []string
	for i := start; i < len(p.Entries) && len(rows) < bodyH; i++ {
		e := p.Entries[i]
		mark := "  "
		if !p.seen[e.ID] {
			mark = st.Unread.Render("● ")
		}
		row := fmt.Sprintf("%s%s  %-14s %s", mark, e.Time.Format("01-02 15:04"), ansi.Truncate(e.Workspace, 14, "…"), summary(e))
		row = ansi.Truncate(row, p.w-2, "…")
		if i == p.Sel {
			row = st.Selected.Render(row)
		}
		rows = append(rows, row)
	}
	return kit.Stack(header, kit.FitHeight(strings.Join(rows, "\n"), bodyH))
}

func (p *Pane) detailView() string {
	lines := p.detailLines()
	p.scroll = min(p.scroll, p.maxScroll())
	return strings.Join(lines[p.scroll:], "\n")
}

// maxScroll is the detail view's last full page: scrolling stops once the
// end is in view.
func (p *Pane) maxScroll() int { return max(0, len(p.detailLines())-max(1, p.h-1)) }

// detailLines is the open entry's whole detail view, one string a line.
func (p *Pane) detailLines() []string {
	st := p.m.Styles()
	e, ok := p.selected()
	if !ok {
		return []string{""}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n\n", st.Accent.Render(e.Workspace), st.Muted.Render(e.Time.Format("2006-01-02 15:04")+" · esc back · w go to workspace"))
	for _, d := range p.docs {
		b.WriteString(st.Title.Render("▍"+d.Path) + "\n")
		if d.Tombstone != "" {
			b.WriteString(st.Warn.Render(d.Tombstone) + "\n\n")
			continue
		}
		b.WriteString(d.Body + "\n\n")
	}
	if p.docs == nil && len(e.Docs) > 0 {
		b.WriteString(st.Muted.Render("rendering…") + "\n")
	}
	if strings.TrimSpace(e.Comments) != "" {
		b.WriteString(st.Title.Render("▍Comments") + "\n" + p.commentsView(e, max(20, p.w-2)) + "\n")
	}
	return strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
}
