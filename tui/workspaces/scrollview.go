package workspaces

import (
	"cmp"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// scrollView reads a session's scrollback plus its current screen: move
// with the arrows, search with /, select lines with space and copy them
// with y (OSC 52, so it works over ssh too).
type scrollView struct {
	title  string
	Lines  []string // plain text: search, selection and copy
	styled []string // the same lines with their colours, as shown
	// wrapped[i]: line i continues on the next (the session's cursor
	// wrapped at the margin there); nil when unknown. A copy joins such
	// lines, as tmux's copy mode does.
	wrapped   []bool
	Cur       int // cursor line
	top       int // first visible line
	anchor    int // selection anchor, -1 for none
	query     string
	dir       int // the last search's direction (-1 towards older lines); n repeats it
	searching bool
	// wheelExit: opened by the wheel over an attached session; wheeling
	// back down to the newest line closes it (tmux's copy-mode -e).
	wheelExit bool
	input     textinput.Model
	h         int // last rendered body height, for paging
}

type scrollKeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom, Search, Next, Prev, Select, Copy, Close key.Binding
}

var scrollKeys = scrollKeyMap{
	Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
	Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
	PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
	PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f", " "), key.WithHelp("pgdn", "page down")),
	Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "oldest")),
	Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "newest")),
	Search:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
	Next:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match")),
	Prev:     key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
	Select:   key.NewBinding(key.WithKeys("V", "s"), key.WithHelp("V", "start/stop selection")),
	Copy:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy selection")),
	Close:    key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close")),
}

func (k scrollKeyMap) help() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Search, k.Next, k.Prev, k.Select, k.Copy, k.Close}
}

// newScrollView shows styled lines (SGR attributes allowed).
func newScrollView(title string, styled []string) *scrollView {
	in := textinput.New()
	in.Prompt = "/"
	lines := make([]string, len(styled))
	for i, l := range styled {
		lines[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	v := &scrollView{title: title, Lines: lines, styled: styled, anchor: -1, input: in, h: 10}
	v.Cur = max(0, len(lines)-1)
	return v
}

func (v *scrollView) move(d int) {
	v.Cur = min(max(0, v.Cur+d), max(0, len(v.Lines)-1))
}

// wheel scrolls three lines; it reports whether the viewer should close
// (opened by the wheel, wheeled back down to the newest line, nothing
// selected or being searched).
func (v *scrollView) wheel(b tea.MouseButton) bool {
	switch b {
	case tea.MouseWheelUp:
		v.move(-3)
	case tea.MouseWheelDown:
		v.move(3)
		return v.wheelExit && v.Cur >= len(v.Lines)-1 && v.anchor < 0 && !v.searching
	}
	return false
}

// find moves the cursor to the next (dir 1) or previous (-1) line holding
// the query, wrapping around; false when nothing matches.
func (v *scrollView) find(dir int) bool {
	if v.query == "" || len(v.Lines) == 0 {
		return false
	}
	q := strings.ToLower(v.query)
	for i := 1; i <= len(v.Lines); i++ {
		j := ((v.Cur+dir*i)%len(v.Lines) + len(v.Lines)) % len(v.Lines)
		if strings.Contains(strings.ToLower(v.Lines[j]), q) {
			v.Cur = j
			return true
		}
	}
	return false
}

// Selection is the selected lines (the cursor line without an anchor).
func (v *scrollView) Selection() []string {
	if len(v.Lines) == 0 {
		return nil
	}
	a, b := v.Cur, v.Cur
	if v.anchor >= 0 {
		a, b = min(v.anchor, v.Cur), max(v.anchor, v.Cur)
	}
	return v.Lines[a : b+1]
}

// SelectionText is the selection as copied: one line per line of the
// session, rows it wrapped joined (their blanks at the margin kept).
func (v *scrollView) SelectionText() string {
	if len(v.Lines) == 0 {
		return ""
	}
	a, b := v.Cur, v.Cur
	if v.anchor >= 0 {
		a, b = min(v.anchor, v.Cur), max(v.anchor, v.Cur)
	}
	var sb strings.Builder
	for i := a; i <= b; i++ {
		wrapped := i < len(v.wrapped) && v.wrapped[i]
		if wrapped && i < b {
			sb.WriteString(ansi.Strip(v.styled[i]))
			continue
		}
		sb.WriteString(v.Lines[i])
		if i < b {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// onScrollKey drives the viewer; esc returns to where it was opened.
func (p *Pane) onScrollKey(msg tea.KeyPressMsg) tea.Cmd {
	v, k := p.Scroll, scrollKeys
	if v.searching {
		switch msg.String() {
		case "esc":
			v.searching = false
			v.input.Blur()
			return nil
		case "enter":
			v.searching, v.query, v.dir = false, v.input.Value(), -1
			v.input.Blur()
			if !v.find(v.dir) {
				return kit.FlashCmd(fmt.Sprintf("no match for %q in the scrollback", v.query))
			}
			return nil
		}
		var cmd tea.Cmd
		v.input, cmd = v.input.Update(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, k.Close):
		p.Mode, p.Scroll = p.back, nil
	case key.Matches(msg, k.Up):
		v.move(-1)
	case key.Matches(msg, k.Down):
		v.move(1)
	case key.Matches(msg, k.PageUp):
		v.move(-v.h)
	case key.Matches(msg, k.PageDown):
		v.move(v.h)
	case key.Matches(msg, k.Top):
		v.Cur = 0
	case key.Matches(msg, k.Bottom):
		v.move(len(v.Lines))
	case key.Matches(msg, k.Search):
		v.searching = true
		v.input.SetValue("")
		return v.input.Focus()
	case key.Matches(msg, k.Next), key.Matches(msg, k.Prev):
		// n searches again the way / did, N the other way (tmux's
		// search-again and search-reverse).
		dir := cmp.Or(v.dir, -1)
		if key.Matches(msg, k.Prev) {
			dir = -dir
		}
		if !v.find(dir) {
			return kit.FlashCmd(fmt.Sprintf("no match for %q in the scrollback", v.query))
		}
	case key.Matches(msg, k.Select):
		if v.anchor >= 0 {
			v.anchor = -1
		} else {
			v.anchor = v.Cur
		}
	case key.Matches(msg, k.Copy):
		sel := v.Selection()
		text := v.SelectionText()
		v.anchor = -1
		return tea.Batch(tea.SetClipboard(text), func() tea.Msg { return kit.FlashMsg(fmt.Sprintf("copied %d line(s)", len(sel))) })
	}
	return nil
}

func (v *scrollView) view(st kit.Styles, w, h int) string {
	bodyH := max(1, h-2)
	v.h = bodyH
	if v.Cur < v.top {
		v.top = v.Cur
	}
	if v.Cur >= v.top+bodyH {
		v.top = v.Cur - bodyH + 1
	}
	title := st.Title.Render("Scrollback · "+v.title) + st.Muted.Render(fmt.Sprintf("  line %d/%d", v.Cur+1, len(v.Lines)))
	rows := []string{ansi.Truncate(title, w, "")}
	a, b := v.Cur, v.Cur
	if v.anchor >= 0 {
		a, b = min(v.anchor, v.Cur), max(v.anchor, v.Cur)
	}
	q := strings.ToLower(v.query)
	// Lines use the whole width, as the session drew them (a row as wide
	// as the pane was cut to two columns fewer, for a cursor mark): the
	// cursor's line and the selection are marked by their backgrounds.
	// The cursor's line stands out from the rest of a selection.
	cursor, selected := st.Selected.Reverse(true).Width(w), st.Selected.Width(w)
	for i := v.top; i < min(len(v.Lines), v.top+bodyH); i++ {
		// Only text past the edge is marked cut, not the blank padding
		// of a session wider than the pane.
		tail := "…"
		if ansi.StringWidth(strings.TrimRight(v.Lines[i], " ")) <= w {
			tail = ""
		}
		l := ansi.Truncate(v.Lines[i], w, tail)
		switch {
		case i == v.Cur:
			l = cursor.Render(strings.TrimRight(l, " "))
		case i >= a && i <= b:
			l = selected.Render(strings.TrimRight(l, " "))
		case q != "" && strings.Contains(strings.ToLower(v.Lines[i]), q):
			l = st.Accent.Render(l)
		default:
			l = ansi.Truncate(v.styled[i], w, tail)
		}
		rows = append(rows, l)
	}
	body := kit.FitHeight(strings.Join(rows, "\n"), h-1)
	foot := st.Muted.Render("/ search · n/N next/prev · V select · y copy · esc close")
	if v.searching {
		foot = v.input.View()
	} else if v.query != "" {
		foot = st.Muted.Render("search: "+v.query+" · ") + foot
	}
	return kit.Stack(body, ansi.Truncate(foot, w, ""))
}

// paste types a paste into the search line while it is open.
func (v *scrollView) paste(content string) tea.Cmd {
	if !v.searching {
		return nil
	}
	var cmd tea.Cmd
	v.input, cmd = v.input.Update(tea.PasteMsg{Content: kit.OneLine(content)})
	return cmd
}
