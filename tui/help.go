package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// helpMode is what the help overlay lists.
type helpMode int

const (
	helpKeys     helpMode = iota // global keys, then every pane's keys
	helpMessages                 // the toast history (errors included)
)

// helpOverlay lists keys (or past messages); typing filters the list.
type helpOverlay struct {
	m      *Model
	mode   helpMode
	input  textinput.Model
	scroll int
}

func (m *Model) openHelp(mode helpMode) {
	in := textinput.New()
	in.Prompt = "filter › "
	in.Focus()
	m.Help = &helpOverlay{m: m, mode: mode, input: in}
}

func (h *helpOverlay) update(msg tea.Msg) tea.Cmd {
	k := h.m.keys.Overlay
	if kp, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(kp, k.Close), key.Matches(kp, k.Run), kp.String() == "f1":
			h.m.Help = nil
			return nil
		case key.Matches(kp, k.Up):
			h.scroll = max(0, h.scroll-1)
			return nil
		case key.Matches(kp, k.Down):
			h.scroll++
			return nil
		}
	}
	var cmd tea.Cmd
	before := h.input.Value()
	h.input, cmd = h.input.Update(msg)
	if h.input.Value() != before {
		h.scroll = 0
	}
	return cmd
}

// helpSection is a titled group of bindings.
type helpSection struct {
	name string
	keys []key.Binding
}

// sections lists global keys first, then the focused pane, then the rest.
func (h *helpOverlay) sections() []helpSection {
	g := h.m.keys.Global
	out := []helpSection{{"Global", []key.Binding{g.Palette, g.Next, g.Prev, g.GoTo, g.Help, g.Messages, g.Dismiss, g.Quit, g.QuitQ}}}
	if h.m.opts.Detachable {
		out[0].keys = append(out[0].keys, g.Detach)
	}
	order := []int{int(h.m.Focus)}
	for i := range h.m.Tabs {
		if i != int(h.m.Focus) {
			order = append(order, i)
		}
	}
	for _, i := range order {
		keys := h.m.Tabs[i].P.ShortHelp()
		// A pane whose footer depends on its state lists all its keys here.
		if a, ok := h.m.Tabs[i].P.(interface{ AllKeys() []key.Binding }); ok {
			keys = a.AllKeys()
		}
		out = append(out, helpSection{h.m.Tabs[i].Name, keys})
	}
	return out
}

// Lines renders the filtered content (before scrolling).
func (h *helpOverlay) Lines() []string {
	out, _ := h.lines()
	return out
}

// lines is Lines with, for each line, whether it is a key (not a section
// title or a message).
func (h *helpOverlay) lines() (out []string, isKey []bool) {
	st := h.m.St
	q := strings.ToLower(strings.TrimSpace(h.input.Value()))
	if h.mode == helpMessages {
		hist := h.m.Toasts.History
		for i := len(hist) - 1; i >= 0; i-- {
			t := hist[i]
			if q != "" && !strings.Contains(strings.ToLower(t.Text), q) {
				continue
			}
			mark := st.Muted.Render("·")
			if t.Kind == kit.ToastError {
				mark = st.Error.Render("✗")
			}
			// The whole text, wrapped under its first line (the status bar
			// cuts long errors).
			body := strings.Split(ansi.Wrap(t.Text, max(20, h.width()-4-11), " "), "\n")
			out = append(out, fmt.Sprintf("%s %s %s", st.Muted.Render(t.At.Format("15:04:05")), mark, body[0]))
			for _, l := range body[1:] {
				out = append(out, strings.Repeat(" ", 11)+l)
			}
		}
		if len(out) == 0 {
			out = append(out, st.Muted.Render("no messages yet"))
		}
		return out, make([]bool, len(out))
	}
	for _, s := range h.sections() {
		var rows []string
		for _, b := range s.keys {
			hb := b.Help()
			if q != "" && !strings.Contains(strings.ToLower(hb.Key+" "+hb.Desc+" "+s.name), q) {
				continue
			}
			rows = append(rows, fmt.Sprintf("  %s %s", st.Accent.Render(fmt.Sprintf("%-12s", hb.Key)), hb.Desc))
		}
		if len(rows) > 0 {
			out = append(out, st.Title.Render(s.name))
			isKey = append(isKey, false)
			out = append(out, rows...)
			for range rows {
				isKey = append(isKey, true)
			}
		}
	}
	if len(out) == 0 {
		out = append(out, st.Muted.Render("no key matches"))
		isKey = append(isKey, false)
	}
	return out, isKey
}

func (h *helpOverlay) view() string {
	st := h.m.St
	title := "Keys"
	if h.mode == helpMessages {
		title = "Messages"
	}
	_, bodyH := h.m.BodySize()
	w := h.width()
	h.input.SetWidth(w - 12)
	all, isKey := h.lines()
	rows := max(3, bodyH-8)
	// Two columns when the list is long and the screen wide enough.
	half := 0
	if h.mode == helpKeys && len(all) > rows && h.m.width >= 110 {
		w = min(h.m.width-8, 2*w)
		half = (len(all) + 1) / 2
		all = twoColumns(all, (w-6)/2)
	}
	h.scroll = min(h.scroll, max(0, len(all)-rows))
	shown := all[h.scroll:min(len(all), h.scroll+rows)]
	lines := []string{st.Title.Render(title) + st.Muted.Render("  esc closes · ↑↓ scroll"), h.input.View(), ""}
	for _, l := range shown {
		lines = append(lines, ansi.Truncate(l, w-4, "…"))
	}
	if len(all) > rows {
		from, to := h.scroll, h.scroll+len(shown)
		if h.mode == helpMessages {
			lines = append(lines, st.Muted.Render(strconv.Itoa(from+1)+"–"+strconv.Itoa(to)+" of "+strconv.Itoa(len(all))))
		} else {
			ranges := [][2]int{{from, to}}
			if half > 0 {
				ranges = [][2]int{{from, min(to, half)}, {half + from, min(half+to, len(isKey))}}
			}
			lines = append(lines, st.Muted.Render(keyCounter(isKey, ranges)))
		}
	}
	return st.Help.Render(strings.Join(lines, "\n"))
}

// keyCounter says which keys the shown line ranges hold, counting keys
// (not rows, nor section titles), so it reads the same at every width:
// "keys 1–9 of 120", in two columns "keys 1–30, 61–90 of 120".
func keyCounter(isKey []bool, ranges [][2]int) string {
	nth := make([]int, len(isKey)+1) // nth[i]: keys before line i
	for i, k := range isKey {
		nth[i+1] = nth[i]
		if k {
			nth[i+1]++
		}
	}
	var spans [][2]int
	for _, r := range ranges {
		first, last := nth[r[0]]+1, nth[r[1]]
		switch {
		case first > last: // no key in this range
		case len(spans) > 0 && first == spans[len(spans)-1][1]+1:
			spans[len(spans)-1][1] = last
		default:
			spans = append(spans, [2]int{first, last})
		}
	}
	var parts []string
	for _, sp := range spans {
		parts = append(parts, strconv.Itoa(sp[0])+"–"+strconv.Itoa(sp[1]))
	}
	return "keys " + strings.Join(parts, ", ") + " of " + strconv.Itoa(nth[len(isKey)])
}

// width is the overlay's width (one column).
func (h *helpOverlay) width() int { return min(90, max(30, h.m.width-8)) }

// twoColumns folds a list into two side-by-side halves of width cw.
func twoColumns(lines []string, cw int) []string {
	half := (len(lines) + 1) / 2
	out := make([]string, half)
	for i := 0; i < half; i++ {
		l := ansi.Truncate(lines[i], cw, "…")
		if pad := cw - ansi.StringWidth(l); pad > 0 {
			l += strings.Repeat(" ", pad)
		}
		if j := i + half; j < len(lines) {
			l += "  " + lines[j]
		}
		out[i] = l
	}
	return out
}
