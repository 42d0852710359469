package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"
)

// actionProvider is a pane that lists actions in the palette. Actions are
// asked for each time the palette opens, so they may depend on state
// (only offer "Approve" when something is pending).
type actionProvider interface{ Actions() []kit.Action }

// actions lists the focused pane's actions, the pane switches, the other
// panes' actions (tab order) and the app's.
func (m *Model) actions() []kit.Action {
	var out []kit.Action
	paneActions := func(i int) []kit.Action {
		if ap, ok := m.Tabs[i].P.(actionProvider); ok {
			return ap.Actions()
		}
		return nil
	}
	out = append(out, paneActions(int(m.Focus))...)
	for i, t := range m.Tabs {
		f := Focus(i)
		k := ""
		if i < 9 {
			k = "alt+" + string(rune('1'+i))
		}
		out = append(out, kit.Action{ID: "pane." + strings.ToLower(t.Name), Title: "Go to " + t.Name, Group: "Go to", Key: k,
			Keywords: "switch pane tab", Run: func() tea.Cmd { m.SetFocus(f); return nil }})
	}
	for i := range m.Tabs {
		if i != int(m.Focus) {
			out = append(out, paneActions(i)...)
		}
	}
	g := m.keys.Global
	out = append(out,
		kit.Action{ID: "app.help", Title: "Show keys (help)", Group: "App", Key: kit.KeyOf(g.Help), Keywords: "keys shortcuts bindings",
			Run: func() tea.Cmd { m.openHelp(helpKeys); return nil }},
		kit.Action{ID: "app.messages", Title: "Show message history", Group: "App", Key: kit.KeyOf(g.Messages), Keywords: "errors toasts log notifications",
			Run: func() tea.Cmd { m.openHelp(helpMessages); return nil }},
		kit.Action{ID: "app.quit", Title: "Quit alice", Group: "App", Key: kit.KeyOf(g.Quit), Keywords: "exit close stop",
			Run: func() tea.Cmd { return m.requestQuit() }},
	)
	if m.opts.Detachable {
		out = append(out, kit.Action{ID: "app.detach", Title: "Detach (alice keeps running)", Group: "App", Key: kit.KeyOf(g.Detach),
			Keywords: "background leave close tmux", Run: func() tea.Cmd { return m.detach() }})
	}
	if m.Toasts.HasError() {
		out = append(out, kit.Action{ID: "app.dismiss", Title: "Dismiss the error", Group: "App", Key: kit.KeyOf(g.Dismiss),
			Run: func() tea.Cmd { m.Toasts.Dismiss(); return nil }})
	}
	return out
}

// palette is the ctrl+p overlay: a filter input over the action list.
type palette struct {
	m       *Model
	input   textinput.Model
	All     []kit.Action
	Matches []fuzzy.Match // nil filter → every action in order
	sel     int
}

type actionSource []kit.Action

func (a actionSource) Len() int { return len(a) }
func (a actionSource) String(i int) string {
	return a[i].Title + " " + a[i].Group + " " + a[i].Keywords
}

func (m *Model) openPalette() {
	in := textinput.New()
	in.Prompt = "› "
	in.Placeholder = "type to filter commands"
	in.Focus()
	m.Palette = &palette{m: m, input: in, All: m.actions()}
	m.Palette.filter()
}

func (p *palette) filter() {
	q := strings.TrimSpace(p.input.Value())
	p.sel = 0
	if q == "" {
		p.Matches = make([]fuzzy.Match, len(p.All))
		for i := range p.All {
			p.Matches[i] = fuzzy.Match{Index: i}
		}
		return
	}
	p.Matches = rankActions(q, p.All)
}

func (p *palette) update(msg tea.Msg) tea.Cmd {
	k := p.m.keys.Overlay
	if kp, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(kp, k.Close):
			p.m.Palette = nil
			return nil
		case key.Matches(kp, k.Up):
			if n := len(p.Matches); n > 0 {
				p.sel = (p.sel + n - 1) % n
			}
			return nil
		case key.Matches(kp, k.Down):
			if n := len(p.Matches); n > 0 {
				p.sel = (p.sel + 1) % n
			}
			return nil
		case key.Matches(kp, k.Run):
			p.m.Palette = nil
			if p.sel < len(p.Matches) {
				if a := p.All[p.Matches[p.sel].Index]; a.Run != nil {
					return a.Run()
				}
			}
			return nil
		}
	}
	before := p.input.Value()
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	if p.input.Value() != before {
		p.filter()
	}
	return cmd
}

func (p *palette) view() string {
	st := p.m.St
	// The box fits the frame area (the body and its borders) at any size,
	// borders kept: padding shrinks first, then the width and the list.
	_, bodyH := p.m.BodySize()
	availW, availH := p.m.width, bodyH+2
	box := st.Help
	if availW-box.GetHorizontalFrameSize() < 30 {
		box = box.PaddingLeft(1).PaddingRight(1)
	}
	if availH-box.GetVerticalFrameSize() < 6 {
		box = box.PaddingTop(0).PaddingBottom(0)
	}
	w := max(1, min(72, max(30, availW-8), availW-box.GetHorizontalFrameSize()))
	inner := availH - box.GetVerticalFrameSize()
	p.input.SetWidth(max(1, w-4))
	lines := []string{ansi.Truncate(st.Title.Render("Commands"), w, "…"), ansi.Truncate(p.input.View(), w, "")}
	if inner >= 6 {
		lines = append(lines, "")
	}
	// The list keeps its usual length (up to 16, the body less 8) when
	// the box fits, else the rows left, the "n/m" counter included.
	space := inner - len(lines)
	rows := max(1, min(16, max(3, bodyH-8), space))
	counter := len(p.Matches) > rows
	if counter && rows >= space {
		if rows > 1 {
			rows--
		} else {
			counter = false
		}
	}
	start := 0
	if p.sel >= rows {
		start = p.sel - rows + 1
	}
	if len(p.Matches) == 0 {
		lines = append(lines, st.Muted.Render("no command matches"))
	}
	for i := start; i < len(p.Matches) && i < start+rows; i++ {
		mt := p.Matches[i]
		a := p.All[mt.Index]
		title := highlight(st, a.Title, mt.MatchedIndexes)
		right := st.Muted.Render(a.Group)
		if a.Key != "" {
			right = st.Accent.Render(a.Key) + "  " + right
		}
		gap := w - ansi.StringWidth(a.Title) - ansi.StringWidth(right) - 2
		row := "  " + title + strings.Repeat(" ", max(1, gap)) + right
		if i == p.sel {
			row = st.Selected.Render("› " + ansi.Strip(row[2:]))
		}
		lines = append(lines, ansi.Truncate(row, w, "…"))
	}
	if n := len(p.Matches); counter {
		lines = append(lines, st.Muted.Render(strings.Repeat(" ", 2)+strconv.Itoa(p.sel+1)+"/"+strconv.Itoa(n)))
	}
	return box.Render(strings.Join(lines, "\n"))
}

// highlight marks the matched runes of s (indexes into the filter string,
// whose first part is the title).
func highlight(st kit.Styles, s string, idx []int) string {
	if len(idx) == 0 {
		return s
	}
	hit := map[int]bool{}
	for _, i := range idx {
		hit[i] = true
	}
	var b strings.Builder
	for i, r := range s {
		if hit[i] {
			b.WriteString(st.Accent.Render(string(r)))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
