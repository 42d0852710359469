package settings

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// Forms in the Settings pane are a small bubbles/textinput form rather
// than charm.land/huh/v2: huh v2.0.3 builds on our pins, but its Form is
// not a tea.Model (Update returns huh.Model, View a string), it brings its
// own key map, theme and ctrl+c handling (our rules: every binding lives
// in our KeyMap with help text, colours only from Styles, ctrl+c reaches
// the root), and the account form is generated at run time from a
// preset's schema, which a plain field list does directly. It also adds
// four modules to go.mod that every other helper's merge would touch.

// fieldKind is how a form field is edited.
type fieldKind int

const (
	fieldText   fieldKind = iota // free text
	fieldChoice                  // one of options, cycled with ←/→ or space
	fieldBool                    // yes/no, toggled with ←/→ or space
)

// formField is one labelled input.
type formField struct {
	key     string
	label   string
	help    string
	kind    fieldKind
	options []string
	choice  int
	input   textinput.Model
	// warn is shown under the field while it has a value (e.g. a secret
	// stored in the config file).
	warn string
	// err is a validation message for this field, shown next to it.
	err string
}

func textField(key, label, value, help string) formField {
	in := textinput.New()
	in.Prompt = ""
	in.SetValue(value)
	in.CharLimit = 4096
	return formField{key: key, label: label, help: help, kind: fieldText, input: in}
}

func choiceField(key, label string, options []string, value string) formField {
	f := formField{key: key, label: label, kind: fieldChoice, options: options}
	for i, o := range options {
		if o == value {
			f.choice = i
		}
	}
	return f
}

func boolField(key, label string, on bool) formField {
	f := formField{key: key, label: label, kind: fieldBool, options: []string{"no", "yes"}}
	if on {
		f.choice = 1
	}
	return f
}

func (f *formField) value() string {
	if f.kind == fieldText {
		return f.input.Value()
	}
	if f.choice < len(f.options) {
		return f.options[f.choice]
	}
	return ""
}

// settingsForm is a modal form. Submitting calls submit with the values by
// key; the result comes back as settingsDoneMsg. change (optional) runs on
// every edit, for live previews.
type settingsForm struct {
	title   string
	intro   string
	fields  []formField
	cur     int
	err     string
	Extra   string // live preview text under the fields
	Seq     int    // bumped on every edit; previews for older edits are dropped
	busy    bool
	submit  func(values map[string]string) tea.Cmd
	change  func(values map[string]string) tea.Cmd
	keys    SettingsKeys
	focused bool
}

func newSettingsForm(keys SettingsKeys, title, intro string, fields []formField, submit func(map[string]string) tea.Cmd) *settingsForm {
	f := &settingsForm{title: title, intro: intro, fields: fields, submit: submit, keys: keys}
	f.focusField(0)
	return f
}

func (f *settingsForm) values() map[string]string {
	out := make(map[string]string, len(f.fields))
	for i := range f.fields {
		out[f.fields[i].key] = f.fields[i].value()
	}
	return out
}

func (f *settingsForm) focusField(i int) {
	if len(f.fields) == 0 {
		return
	}
	if f.fields[f.cur].kind == fieldText {
		f.fields[f.cur].input.Blur()
	}
	f.cur = (i + len(f.fields)) % len(f.fields)
	if f.fields[f.cur].kind == fieldText {
		f.fields[f.cur].input.Focus() // choice fields have no input
	}
}

// update handles a key; done reports that the form closed (esc).
func (f *settingsForm) update(msg tea.Msg) (cmd tea.Cmd, closed bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if p, isPaste := msg.(tea.PasteMsg); isPaste && f.fields[f.cur].kind == fieldText {
			var c tea.Cmd
			f.fields[f.cur].input, c = f.fields[f.cur].input.Update(p)
			return tea.Batch(c, f.changed()), false
		}
		return nil, false
	}
	if f.busy {
		return nil, false
	}
	fk := f.keys
	fld := &f.fields[f.cur]
	switch {
	case key.Matches(k, fk.Cancel):
		return nil, true
	case key.Matches(k, fk.Submit):
		return f.doSubmit(), false
	case key.Matches(k, fk.NextField):
		if f.cur == len(f.fields)-1 && k.String() == "enter" {
			return f.doSubmit(), false
		}
		f.focusField(f.cur + 1)
		return nil, false
	case key.Matches(k, fk.PrevField):
		f.focusField(f.cur - 1)
		return nil, false
	}
	if fld.kind != fieldText {
		switch k.String() {
		case "left", "h":
			fld.choice = (fld.choice + len(fld.options) - 1) % len(fld.options)
			return f.changed(), false
		case "right", "l", "space", " ":
			fld.choice = (fld.choice + 1) % len(fld.options)
			return f.changed(), false
		}
		return nil, false
	}
	var c tea.Cmd
	fld.input, c = fld.input.Update(k)
	return tea.Batch(c, f.changed()), false
}

func (f *settingsForm) changed() tea.Cmd {
	if f.change == nil {
		return nil
	}
	f.Seq++
	return f.change(f.values())
}

// setError shows err next to the field it names (an error with a
// Field() string method, e.g. a guard option), else under the form.
func (f *settingsForm) setError(err error) {
	var fe interface {
		error
		Field() string
	}
	if errors.As(err, &fe) && fe.Field() != "" {
		for i := range f.fields {
			if f.fields[i].key == fe.Field() {
				f.fields[i].err = fe.Error()
				f.focusField(i)
				return
			}
		}
	}
	f.err = err.Error()
}

func (f *settingsForm) doSubmit() tea.Cmd {
	f.busy, f.err = true, ""
	for i := range f.fields {
		f.fields[i].err = ""
	}
	return f.submit(f.values())
}

// formHint is the form's key-hint line, always its last row.
const formHint = "tab/enter next field · shift+tab back · ctrl+s save · esc cancel"

// view renders the form at width w in at most h rows (h <= 0: no limit).
// A form taller than h shows a window onto itself that holds the focused
// field (its input row first, then its help and error) and the form's
// error or "saving…", with a "↑/↓ N more" row where rows are hidden; the
// key-hint line stays at the bottom.
func (f *settingsForm) view(st kit.Styles, w, h int) string {
	var lines []string
	add := func(s string) { lines = append(lines, strings.Split(s, "\n")...) }
	add(st.Title.Render(f.title))
	if f.intro != "" {
		add(wrapIndent(st.Muted.Render, f.intro, 0, w))
	}
	add("")
	labelW := 0
	for _, fl := range f.fields {
		labelW = max(labelW, len(fl.label))
	}
	focusStart, focusEnd := 0, 0
	for i := range f.fields {
		fl := &f.fields[i]
		if i == f.cur {
			focusStart = len(lines)
		}
		marker := "  "
		label := st.Text.Render(fmt.Sprintf("%-*s", labelW, fl.label))
		if i == f.cur {
			marker = st.Accent.Render("▸ ")
			label = st.Accent.Render(fmt.Sprintf("%-*s", labelW, fl.label))
		}
		var val string
		switch fl.kind {
		case fieldText:
			fl.input.SetWidth(max(10, w-labelW-6))
			val = fl.input.View()
		default:
			val = "‹ " + fl.value() + " ›"
			if i == f.cur {
				val = st.Selected.Render(val)
			}
		}
		add(marker + label + "  " + val)
		if fl.help != "" && i == f.cur {
			add(wrapIndent(st.Muted.Render, fl.help, labelW+4, w))
		}
		if fl.err != "" {
			add(wrapIndent(st.Error.Render, "✗ "+fl.err, labelW+4, w))
		}
		if fl.warn != "" && fl.value() != "" {
			add(wrapIndent(st.Warn.Render, "⚠ "+fl.warn, labelW+4, w))
		}
		if i == f.cur {
			focusEnd = len(lines)
		}
	}
	if f.Extra != "" {
		add("")
		add(f.Extra)
	}
	errStart, errEnd := -1, -1
	if f.err != "" {
		add("")
		errStart = len(lines)
		add(wrapIndent(st.Error.Render, "✗ "+f.err, 0, w))
		errEnd = len(lines)
	}
	if f.busy {
		add("")
		if errStart < 0 {
			errStart = len(lines)
		}
		add(st.Muted.Render("saving…"))
		errEnd = len(lines)
	}
	hint := st.Muted.Render(formHint)
	if h <= 0 || len(lines)+2 <= h {
		return strings.Join(lines, "\n") + "\n\n" + hint
	}
	return strings.Join(append(formWindow(st, lines, h-1, focusStart, focusEnd, errStart, errEnd), hint), "\n")
}

// formWindow picks at most rows of lines: a contiguous run that shows
// lines[focusStart] and as much of [focusStart, focusEnd) and of
// [errStart, errEnd) (errStart < 0: none) as fits, topped by "↑ N more"
// and ended by "↓ N more" when rows are hidden there.
func formWindow(st kit.Styles, lines []string, rows, focusStart, focusEnd, errStart, errEnd int) []string {
	out, _ := windowFrom(st, lines, rows, 0, focusStart, focusEnd, errStart, errEnd)
	return out
}

// windowFrom is formWindow that starts from the window's previous first
// line, prev, and moves it only as far as the focus needs: a list keeps
// its viewport while the cursor moves inside it. It returns the window
// and its first line (the next prev).
func windowFrom(st kit.Styles, lines []string, rows, prev, focusStart, focusEnd, errStart, errEnd int) ([]string, int) {
	n := len(lines)
	if rows <= 0 {
		return nil, 0
	}
	var start, end int
	up, down := false, false
	for range 3 { // markers are only ever added, so this settles
		room := rows - b2i(up) - b2i(down)
		start = max(0, min(prev, focusStart))
		if want := min(focusEnd, focusStart+room); want > start+room {
			start = want - room
		}
		if errStart >= 0 {
			if want := min(errEnd, errStart+room); want > start+room {
				start = min(focusStart, want-room) // never below the focused row
			}
		}
		start = max(0, min(start, n-room))
		end = min(n, start+room)
		nu, nd := start > 0, end < n
		if rows < 3 || (!nu || up) && (!nd || down) {
			break // fewer than 3 rows: the focused field alone, no markers
		}
		up, down = up || nu, down || nd
	}
	out := make([]string, 0, rows)
	first := start
	if up && start > 0 {
		out = append(out, st.Muted.Render(fmt.Sprintf("↑ %d more", start)))
	} else if up {
		out = append(out, "")
	}
	out = append(out, lines[start:end]...)
	if down && end < n {
		out = append(out, st.Muted.Render(fmt.Sprintf("↓ %d more", n-end)))
	} else if down {
		out = append(out, "")
	}
	return out, first
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// wrapIndent wraps text to the w cells left after indent, each row
// indented and styled on its own: a long error or help line at 80
// columns is read in full instead of ending in "…".
func wrapIndent(render func(...string) string, text string, indent, w int) string {
	pad := strings.Repeat(" ", indent)
	width := max(10, w-indent)
	var out []string
	for _, row := range strings.Split(ansi.Wrap(text, width, ""), "\n") {
		for _, r := range strings.Split(ansi.Hardwrap(row, width, true), "\n") {
			out = append(out, pad+render(r))
		}
	}
	return strings.Join(out, "\n")
}
