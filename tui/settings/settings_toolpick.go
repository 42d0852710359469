package settings

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// toolPicker picks the tools a channel hides from the tool list: ↑/↓
// move, space marks a tool off (or on again), ctrl+s or enter saves, esc
// cancels. Tools disabled everywhere (tools.json) are shown as such.
type toolPicker struct {
	ch    ChannelSetting
	tools []ToolSetting
	off   map[string]bool
	sel   int
	busy  bool
	err   string
}

func newToolPicker(ch ChannelSetting, tools []ToolSetting) *toolPicker {
	tp := &toolPicker{ch: ch, tools: slices.Clone(tools), off: map[string]bool{}}
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
	return []key.Binding{k.Up, k.Down, k.Toggle, k.Submit, k.Cancel}
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
	switch {
	case key.Matches(k, ks.Cancel):
		p.picker = nil
	case key.Matches(k, ks.Up):
		tp.sel = max(0, tp.sel-1)
	case key.Matches(k, ks.Down):
		tp.sel = min(len(tp.tools)-1, tp.sel+1)
	case key.Matches(k, ks.Toggle):
		if tp.sel < len(tp.tools) {
			n := tp.tools[tp.sel].Name
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
	for i, t := range tp.tools {
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
		row := fmt.Sprintf("%s %-26s %s", mark, t.Name, st.Muted.Render(note))
		if i == tp.sel {
			row = st.Selected.Render("▸ " + row)
		} else {
			row = "  " + row
		}
		lines = append(lines, row)
	}
	avail := max(3, p.h-9)
	start := 0
	if selLine >= avail {
		start = selLine - avail + 1
	}
	end := min(len(lines), start+avail)
	head := st.Title.Render("Tools off in "+tp.ch.Label) + st.Muted.Render(fmt.Sprintf("  %d of %d marked [x] · hidden from the model and refused in this channel", len(tp.off)-countFalse(tp.off), len(tp.tools)))
	body := head + "\n\n" + strings.Join(lines[start:end], "\n")
	if tp.err != "" {
		body += "\n\n" + st.Error.Render("✗ "+tp.err)
	}
	if tp.busy {
		body += "\n\n" + st.Muted.Render("saving…")
	}
	return body + "\n\n" + st.Muted.Render("space mark/unmark · ctrl+s or enter save · esc cancel")
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
