package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// The screen, top to bottom:
//
//	tab bar        1 row   (numbered tabs, the focused one highlighted)
//	frame          rest    (border with the pane title; accent = has the keys)
//	footer         1 row   (the focused pane's key hints … quit/help always)
//	status bar     1 row   (TRADING HALTED while the kill switch is on,
//	                        listeners, provider, progress, newest toast)
//
// Panes get the inside of the frame: width-2*frameLeft, height-chromeRows.
const (
	FrameTop   = 2 // tab bar + top border: pane row 0 is screen row 2
	FrameLeft  = 2 // border + one space of padding
	chromeRows = 5 // tab bar, two borders, footer, status bar
)

// BodySize is the pane area inside the frame.
func (m *Model) BodySize() (int, int) {
	return max(10, m.width-2*FrameLeft), max(3, m.height-chromeRows)
}

// Render is View's content, separated so tests and benchmarks can use it.
func (m *Model) Render() string {
	w, h := m.BodySize()
	var body []string
	if lp, ok := m.cur().(kit.LinesPane); ok {
		body = lp.ViewLines(h)
	} else {
		body = kit.FitLines(strings.Split(m.cur().View(), "\n"), h)
	}
	var ov string
	switch {
	case m.QuitDlg != nil:
		ov = m.QuitDlg.view()
	case m.Dialog != nil:
		ov = m.Dialog.view()
	case m.Palette != nil:
		ov = m.Palette.view()
	case m.Help != nil:
		ov = m.Help.view()
	}
	if m.reuse != viewBody || m.last.footer == "" {
		m.last.footer, m.last.status, m.last.tabBar = m.footer(), m.statusBar(), m.tabBar()
	}
	if ov != "" {
		framed := overlayCenter(m.frame(body, w, h), ov, m.width, h+2)
		return strings.Join([]string{m.last.tabBar, framed, m.last.footer, m.last.status}, "\n")
	}
	// The whole screen in one copy: an echo's frame is mostly lines kept
	// from the last one.
	top, rows, bottom := m.frameRows(body, w, h)
	return joinLines(m.last.tabBar, top, rows, bottom, m.last.footer, m.last.status)
}

// joinLines joins first, the rows and the rest with newlines, sized once.
func joinLines(first, top string, rows []string, rest ...string) string {
	n := len(first) + len(top) + 1
	for _, r := range rows {
		n += len(r) + 1
	}
	for _, r := range rest {
		n += len(r) + 1
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(first)
	b.WriteByte('\n')
	b.WriteString(top)
	for _, r := range rows {
		b.WriteByte('\n')
		b.WriteString(r)
	}
	for _, r := range rest {
		b.WriteByte('\n')
		b.WriteString(r)
	}
	return b.String()
}

// tabLabel is one tab's plain text: number, title and the pane's badge.
// When the tabs do not fit, the bar tightens step by step (tabLevel):
// 1 drops the padding, 2 cuts unfocused titles to three letters, 3 keeps
// only their numbers. The focused tab always shows its full title.
func (m *Model) tabLabel(i, level int) string {
	return m.tabLabelAs(i, level, Focus(i) == m.Focus)
}

func (m *Model) tabLabelAs(i, level int, focused bool) string {
	name := m.Tabs[i].Name
	if !focused {
		switch {
		case level == 2:
			if r := []rune(name); len(r) > 3 {
				name = string(r[:3])
			}
		case level >= 3:
			name = ""
		}
	}
	label := strconv.Itoa(i + 1)
	if name != "" {
		label += " " + name
	}
	if b, ok := m.Tabs[i].P.(badger); ok {
		if s := b.Badge(); s != "" {
			label += " " + s
		}
	}
	if level == 0 || focused {
		label = " " + label + " "
	}
	return label
}

// tabSep separates tab labels at a level (the numbers also separate).
func tabSep(level int) string {
	if level == 2 {
		return "  "
	}
	return " "
}

// tabLevel is the least tightening at which the tabs fit the width
// whichever tab is focused, so the bar keeps its layout when the focus
// moves (the focused tab's full title is the widest it can be).
func (m *Model) tabLevel() int {
	for level := 0; level < 3; level++ {
		w, grow := 0, 0
		for i := range m.Tabs {
			plain := ansi.StringWidth(m.tabLabelAs(i, level, false))
			w += plain + len(tabSep(level))
			grow = max(grow, ansi.StringWidth(m.tabLabelAs(i, level, true))-plain)
		}
		if w-len(tabSep(level))+grow <= m.width {
			return level
		}
	}
	return 3
}

func (m *Model) tabBar() string {
	// The bar changes with the width, the focus and the badges only: the
	// labels are the key, the styled bar is drawn again when one changes.
	var key strings.Builder
	fmt.Fprint(&key, m.width, m.Focus)
	for i := range m.Tabs {
		key.WriteString("\x00" + m.tabLabel(i, 0))
	}
	if k := key.String(); k != m.tabBarKey {
		m.tabBarKey, m.tabBarLine = k, m.drawTabBar()
	}
	return m.tabBarLine
}

func (m *Model) drawTabBar() string {
	var b strings.Builder
	level := m.tabLevel()
	for i := range m.Tabs {
		if i > 0 {
			b.WriteString(tabSep(level))
		}
		label := m.tabLabel(i, level)
		if Focus(i) == m.Focus {
			b.WriteString(m.St.Selected.Render(label))
		} else {
			b.WriteString(m.St.TitleDim.Render(label))
		}
	}
	line := b.String()
	title := m.St.Muted.Render(" alice " + m.opts.Version)
	if pad := m.width - ansi.StringWidth(line) - ansi.StringWidth(title); pad > 0 {
		line += strings.Repeat(" ", pad) + title
	}
	return ansi.Truncate(line, m.width, "…")
}

// frame draws a rounded border around body with the pane's title in the
// top edge. The border is the accent colour while the pane has the keys
// and muted while an overlay does.
func (m *Model) frame(lines []string, w, h int) string {
	top, rows, bottom := m.frameRows(lines, w, h)
	return strings.Join(append(append([]string{top}, rows...), bottom), "\n")
}

// frameRows is frame as its top edge, body rows (the cache's: read only)
// and bottom edge.
func (m *Model) frameRows(lines []string, w, h int) (top string, rows []string, bottom string) {
	e := m.frameEdges()
	left, right := e.left, e.right
	lines = kit.FitLines(lines, h)
	// Only lines that changed since the last frame are measured again.
	framed := m.frameLines.Map(e.lines, lines, func(line string) string {
		if lw := kit.Width(line); lw > w {
			line = ansi.Truncate(line, w, "…")
		} else if lw < w {
			line += strings.Repeat(" ", w-lw)
		}
		return left + line + right
	})
	return e.top, framed, e.bottom
}

// edges are the frame's styled top and bottom lines and the left and right
// edges of a body line, for one width, title and border colour.
type edges struct {
	key, top, bottom, left, right string
	// lines keys the framed-line cache: everything a framed line
	// depends on besides its text.
	lines string
}

// frameEdges returns the frame's edges, styled again only when the width,
// the focused pane or the border colour changed (or the styles: see
// BackgroundColorMsg).
func (m *Model) frameEdges() edges {
	border := m.St.FrameFocused
	if m.overlayOpen() {
		border = m.St.Frame
	}
	title := " " + m.Tabs[m.Focus].Name + " "
	key := fmt.Sprint(m.width, m.overlayOpen(), title)
	if m.edges.key == key {
		return m.edges
	}
	bs := lipgloss.RoundedBorder()
	edge := func(s string) string { return border.Render(s) }
	inner := m.width - 2
	topFill := max(0, inner-1-ansi.StringWidth(title))
	m.edges = edges{
		key:    key,
		top:    edge(bs.TopLeft+bs.Top) + m.St.Title.Render(title) + edge(strings.Repeat(bs.Top, topFill)+bs.TopRight),
		bottom: edge(bs.BottomLeft + strings.Repeat(bs.Bottom, max(0, inner)) + bs.BottomRight),
		left:   edge(bs.Left) + " ",
		right:  " " + edge(bs.Right),
	}
	bw, _ := m.BodySize()
	m.edges.lines = fmt.Sprint(bw, m.edges.left, m.edges.right)
	return m.edges
}

// dialogBox renders a dialog that fits the terminal: content wider than
// the screen is word-wrapped inside the frame, so every line of a
// confirmation (an order's evidence, what quitting stops) stays readable
// at 80 columns instead of running off the edge.
func (m *Model) dialogBox(content string) string {
	st := m.St.Dialog
	out := st.Render(content)
	maxW := m.width
	if maxW <= 0 || lipgloss.Width(out) <= maxW {
		return out
	}
	inner := max(10, maxW-st.GetHorizontalFrameSize())
	return st.Render(wrapHanging(content, inner))
}

// wrapHanging wraps each line of s to w cells at spaces (and hyphens);
// the rows a line wraps into keep its indent, and a word longer than a
// row is cut hard so the frame stays on screen. No extra breakpoints:
// ansi.Wrap lets a row end one cell past w at a "/" or ",".
func wrapHanging(s string, w int) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if ansi.StringWidth(line) <= w {
			out = append(out, line)
			continue
		}
		body := strings.TrimLeft(line, " ")
		indent := len(line) - len(body)
		if indent > w/2 {
			indent = 0
			body = line
		}
		pad := strings.Repeat(" ", indent)
		for _, row := range strings.Split(ansi.Wrap(body, w-indent, ""), "\n") {
			for _, r := range strings.Split(ansi.Hardwrap(row, w-indent, true), "\n") {
				out = append(out, pad+r)
			}
		}
	}
	return strings.Join(out, "\n")
}

// overlayCenter draws box centred over base (both w×h cells).
func overlayCenter(base, box string, w, h int) string {
	bw, bh := lipgloss.Width(box), lipgloss.Height(box)
	if bw > w || bh > h {
		// Last resort (dialogBox wraps first): cut each line, never the
		// whole block into one line.
		lines := strings.Split(box, "\n")
		if len(lines) > h {
			lines = lines[:h]
		}
		for i, l := range lines {
			lines[i] = ansi.Truncate(l, w, "")
		}
		box = strings.Join(lines, "\n")
		bw, bh = lipgloss.Width(box), lipgloss.Height(box)
	}
	c := lipgloss.NewCanvas(w, h)
	c.Compose(lipgloss.NewCompositor(lipgloss.NewLayer(base),
		lipgloss.NewLayer(box).X(max(0, (w-bw)/2)).Y(max(0, (h-bh)/2)).Z(1)))
	return c.Render()
}

// footer lists the focused pane's keys, cut with an ellipsis, and always
// ends with how to open the palette, get help and quit.
func (m *Model) footer() string {
	g := m.keys.Global
	var right []key.Binding
	switch {
	case m.QuitDlg != nil, m.Dialog != nil:
		right = []key.Binding{m.keys.Dialog.Yes, m.keys.Dialog.No}
	case m.Palette != nil:
		right = []key.Binding{m.keys.Overlay.Run, m.keys.Overlay.Close}
	case m.Help != nil:
		// Help lists keys; it runs none (enter closes it, like esc).
		right = []key.Binding{key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑↓", "scroll")), m.keys.Overlay.Close}
	default:
		helpKey := g.Help
		if m.cur().Capturing() {
			helpKey = key.NewBinding(key.WithKeys("f1"), key.WithHelp("f1", "help"))
		}
		right = []key.Binding{g.Palette, helpKey, g.Quit}
		if m.opts.Detachable {
			right = append(right, g.Detach)
		}
	}
	var hints []key.Binding
	if !m.overlayOpen() {
		if m.Focus == FocusWorkspaces && m.Workspaces.Attached() {
			hints = []key.Binding{m.keys.Workspaces.Detach}
			right = nil
		} else {
			hints = m.cur().ShortHelp()
		}
	}
	rightText := joinHints(m.St, right)
	avail := m.width - ansi.StringWidth(rightText) - 2
	var b strings.Builder
	used := 1
	b.WriteByte(' ')
	sep := m.St.Muted.Render(" · ")
	for i, k := range hints {
		if !k.Enabled() {
			continue
		}
		h := hint(m.St, k)
		need := ansi.StringWidth(h)
		if i > 0 && used > 1 {
			need += 3
		}
		if used+need > avail-2 {
			b.WriteString(m.St.Muted.Render(" …"))
			used += 2
			break
		}
		if used > 1 {
			b.WriteString(sep)
		}
		b.WriteString(h)
		used += need
	}
	pad := max(1, m.width-used-ansi.StringWidth(rightText)-1)
	return ansi.Truncate(b.String()+strings.Repeat(" ", pad)+rightText+" ", m.width, "…")
}

func hint(st kit.Styles, k key.Binding) string {
	h := k.Help()
	return st.Accent.Render(h.Key) + " " + st.Muted.Render(h.Desc)
}

func joinHints(st kit.Styles, ks []key.Binding) string {
	parts := make([]string, 0, len(ks))
	for _, k := range ks {
		parts = append(parts, hint(st, k))
	}
	return strings.Join(parts, st.Muted.Render(" · "))
}

// statusBar shows running work and the newest toast first (they matter
// now), then the listeners and the provider. While the kill switch is on
// it starts with TRADING HALTED, on every pane and at every width.
func (m *Model) statusBar() string {
	s := m.St
	var parts []string
	if m.Portfolio.Halted().Halted {
		parts = append(parts, s.Alert.Render(" TRADING HALTED "))
	}
	// Sessions that need a person come first: they are why you look.
	if a := m.Workspaces.AgentStatus(); a != "" {
		parts = append(parts, a)
	}
	if w := m.Work.View(s, m.now()); w != "" {
		parts = append(parts, w)
	}
	if t, ok := m.Toasts.Current(); ok {
		used := 0
		for _, p := range parts {
			used += ansi.StringWidth(p) + 1
		}
		dismiss := m.keys.Global.Dismiss
		if m.attachedError() {
			dismiss = m.keys.Workspaces.Detach // ctrl+x belongs to the attached session
		}
		parts = append(parts, t.View(s, dismiss, m.keys.Global.Messages, m.width-used))
	} else if len(m.Status.Problems) > 0 {
		parts = append(parts, s.Warn.Render(" ⚠ "+kit.FirstLine(m.Status.Problems[0])))
	}
	if m.Focus == FocusWorkspaces && m.Workspaces.Attached() {
		parts = append(parts, s.StatusKey.Render(" ● input ")+s.StatusBar.Render("ctrl+q detach"))
	}
	if m.Status.Telegram != "" {
		parts = append(parts, s.Warn.Render(" ⚠ "+m.Status.Telegram))
	}
	parts = append(parts, s.StatusKey.Render(" MCP ")+s.StatusBar.Render(kit.OrDash(m.Status.MainMCP)))
	if m.Status.AskMCP != "" {
		parts = append(parts, s.StatusKey.Render(" Ask ")+s.StatusBar.Render(m.Status.AskMCP))
	}
	parts = append(parts, s.StatusKey.Render(" AI ")+s.StatusBar.Render(kit.OrDash(m.Status.Provider)))
	line := strings.Join(parts, s.StatusBar.Render(" "))
	line = ansi.Truncate(line, m.width, "…")
	if pad := m.width - ansi.StringWidth(line); pad > 0 {
		line += s.StatusBar.Render(strings.Repeat(" ", pad))
	}
	return line
}

func (m *Model) handleMouse(msg tea.Msg) tea.Cmd {
	if click, ok := msg.(tea.MouseClickMsg); ok {
		// Clicking a tab title focuses that pane.
		if click.Y == 0 {
			x, level := 0, m.tabLevel()
			for i := range m.Tabs {
				w := ansi.StringWidth(m.tabLabel(i, level)) + len(tabSep(level))
				if click.X >= x && click.X < x+w {
					m.SetFocus(Focus(i))
					return nil
				}
				x += w
			}
			return nil
		}
		// Clicking the status bar dismisses the live error (in every
		// mode: the status bar is never the attached session's).
		if click.Y == m.height-1 && m.Toasts.HasError() {
			m.Toasts.Dismiss()
			return nil
		}
		if m.overlayOpen() {
			return nil
		}
		// Body clicks go to the focused pane in pane coordinates.
		click.Y -= FrameTop
		click.X -= FrameLeft
		return m.cur().Update(click)
	}
	if m.overlayOpen() {
		return nil
	}
	// Wheel, drag and release go to the focused pane in pane coordinates
	// too, so a child that asked for mouse reporting sees whole gestures.
	switch ev := msg.(type) {
	case tea.MouseWheelMsg:
		ev.Y, ev.X = ev.Y-FrameTop, ev.X-FrameLeft
		return m.cur().Update(ev)
	case tea.MouseReleaseMsg:
		ev.Y, ev.X = ev.Y-FrameTop, ev.X-FrameLeft
		return m.cur().Update(ev)
	case tea.MouseMotionMsg:
		ev.Y, ev.X = ev.Y-FrameTop, ev.X-FrameLeft
		return m.cur().Update(ev)
	}
	return m.cur().Update(msg)
}

// goToIndex maps alt+1…alt+9 and f2…f10 to a tab index.
func goToIndex(k string) (int, bool) {
	if strings.HasPrefix(k, "alt+") && len(k) == 5 && k[4] >= '1' && k[4] <= '9' {
		return int(k[4] - '1'), true
	}
	if strings.HasPrefix(k, "f") {
		if n, err := strconv.Atoi(k[1:]); err == nil && n >= 2 && n <= 10 {
			return n - 2, true
		}
	}
	return 0, false
}
