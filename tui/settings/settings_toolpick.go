package settings

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// toolPicker picks the tools a channel hides from the tool list: ↑/↓
// move, space marks a tool off (or on again), / filters by name, group or
// description, ctrl+s or enter saves, esc cancels. Tools disabled
// everywhere (tools.json) are shown as such.
type toolPicker struct {
	ch        ChannelSetting
	tools     []ToolSetting
	off       map[string]bool
	sel       int // index into shown()
	busy      bool
	err       string
	filter    textinput.Model
	filtering bool // typed keys go to the filter
	top       int  // the list window's first line on the last frame
}

// shown is the tool list narrowed by the filter.
func (tp *toolPicker) shown() []ToolSetting {
	q := strings.ToLower(strings.TrimSpace(tp.filter.Value()))
	if q == "" {
		return tp.tools
	}
	var out []ToolSetting
	for _, t := range tp.tools {
		if strings.Contains(strings.ToLower(t.Name+" "+t.Group+" "+t.Description), q) {
			out = append(out, t)
		}
	}
	return out
}

func newToolPicker(ch ChannelSetting, tools []ToolSetting) *toolPicker {
	f := textinput.New()
	f.Prompt = "filter › "
	tp := &toolPicker{ch: ch, tools: slices.Clone(tools), off: map[string]bool{}, filter: f}
	for _, t := range ch.DisabledTools {
		tp.off[t] = true
		if !slices.ContainsFunc(tp.tools, func(x ToolSetting) bool { return x.Name == t }) {
			// A name no tool has (a typo in the file): listed so it can be removed.
			tp.tools = append(tp.tools, ToolSetting{Name: t, Group: "unknown", Enabled: true})
		}
	}
	return tp
}

func (tp *toolPicker) help(k SettingsKeys) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Toggle, k.Filter, k.Submit, k.Cancel}
}

// disabled lists the marked tools in tool-list order.
func (tp *toolPicker) disabled() []string {
	var out []string
	for _, t := range tp.tools {
		if tp.off[t.Name] {
			out = append(out, t.Name)
		}
	}
	return out
}

// pickerSavedMsg is the result of saving the picker's choice.
type pickerSavedMsg struct {
	tp  *toolPicker
	n   int
	err error
}

func (p *Pane) pickerKey(k tea.KeyPressMsg) tea.Cmd {
	tp, ks := p.picker, p.keys
	if tp.busy {
		return nil
	}
	if tp.filtering {
		switch k.String() {
		case "esc":
			tp.filter.SetValue("")
			fallthrough
		case "enter", "up", "down":
			tp.filtering = false
			tp.filter.Blur()
			return nil
		}
		var cmd tea.Cmd
		tp.filter, cmd = tp.filter.Update(k)
		tp.sel = 0
		return cmd
	}
	shown := tp.shown()
	switch {
	case key.Matches(k, ks.Cancel):
		p.picker = nil
	case key.Matches(k, ks.Filter):
		tp.filtering = true
		return tp.filter.Focus()
	case key.Matches(k, ks.Up):
		tp.sel = max(0, tp.sel-1)
	case key.Matches(k, ks.Down):
		tp.sel = max(0, min(len(shown)-1, tp.sel+1))
	case key.Matches(k, ks.Toggle):
		if tp.sel < len(shown) {
			n := shown[tp.sel].Name
			tp.off[n] = !tp.off[n]
		}
	case key.Matches(k, ks.Submit), k.String() == "enter":
		tp.busy, tp.err = true, ""
		sc, base, ch := p.sc, p.chans.Version, tp.ch
		ch.DisabledTools = tp.disabled()
		return func() tea.Msg {
			return pickerSavedMsg{tp: tp, n: len(ch.DisabledTools), err: sc.SaveChannel(base, ch)}
		}
	}
	return nil
}

// pickerSaved closes the picker on success; an error stays in it.
func (p *Pane) pickerSaved(msg pickerSavedMsg) tea.Cmd {
	msg.tp.busy = false
	if msg.err != nil {
		msg.tp.err = msg.err.Error()
		return p.Load()
	}
	if p.picker == msg.tp {
		p.picker = nil
	}
	text := fmt.Sprintf("%s: %s off (from its next message)", msg.tp.ch.Label, kit.Plural(msg.n, "tool"))
	return tea.Batch(p.Load(), func() tea.Msg { return kit.FlashMsg(text) })
}

func (p *Pane) pickerView() string {
	tp, st := p.picker, p.m.Styles()
	var lines []string
	selLine, group := 0, "\x00"
	shown := tp.shown()
	if len(shown) == 0 {
		lines = append(lines, st.Muted.Render("  no tool matches"))
	}
	for i, t := range shown {
		if t.Group != group {
			group = t.Group
			lines = append(lines, st.Accent.Render(kit.OrDash(group)))
		}
		if i == tp.sel {
			selLine = len(lines)
		}
		mark := "[ ]"
		if tp.off[t.Name] {
			mark = "[x]"
		}
		note := clipText(t.Description, max(10, p.w-40))
		if !t.Enabled {
			note = "off everywhere (Tools page)"
		}
		row := mark + " " + kit.Cell(t.Name, 26) + " " + st.Muted.Render(note)
		if i == tp.sel {
			row = st.Selected.Render("▸ " + row)
		} else {
			row = "  " + row
		}
		lines = append(lines, row)
	}
	head := st.Title.Render("Tools off in "+tp.ch.Label) + st.Muted.Render(fmt.Sprintf("  %d of %d marked [x] · hidden from the model and refused in this channel", len(tp.off)-countFalse(tp.off), len(tp.tools)))
	var notes []string
	if tp.err != "" {
		notes = append(notes, "", st.Error.Render("✗ "+tp.err))
	}
	if tp.busy {
		notes = append(notes, "", st.Muted.Render("saving…"))
	}
	hint := st.Muted.Render("space mark/unmark · / filter · ctrl+s or enter save · esc cancel")
	// Under the page tabs and a blank row: the title, the filter, a
	// window onto the list holding the selection ("↑/↓ N more" where
	// rows are hidden), the error, the key hints. Blank rows go first
	// when the pane is short.
	room := p.h - 2 - 2 - 1 - len(notes) // tabs+blank, title+filter, hint
	gap := "\n"
	if room-2 >= min(len(lines), 3) {
		room, gap = room-2, "\n\n"
	} else {
		notes = withoutBlanks(notes)
		room = p.h - 2 - 2 - 1 - len(notes)
	}
	list := lines
	if p.h > 0 && len(lines) > max(1, room) {
		list, tp.top = windowFrom(*st, lines, max(1, room), tp.top, selLine, selLine+1, -1, -1)
	}
	body := head + "\n" + tp.filter.View() + gap + strings.Join(list, "\n")
	if len(notes) > 0 {
		body += "\n" + strings.Join(notes, "\n")
	}
	return body + gap + hint
}

// withoutBlanks drops the empty strings of lines.
func withoutBlanks(lines []string) []string {
	var out []string
	for _, l := range lines {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func countFalse(m map[string]bool) int {
	n := 0
	for _, v := range m {
		if !v {
			n++
		}
	}
	return n
}

// paste types a paste into the filter while it is open.
func (tp *toolPicker) paste(msg tea.PasteMsg) tea.Cmd {
	if !tp.filtering || tp.busy {
		return nil
	}
	var cmd tea.Cmd
	tp.filter, cmd = tp.filter.Update(tea.PasteMsg{Content: kit.OneLine(msg.Content)})
	tp.sel = 0
	return cmd
}
