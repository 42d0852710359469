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

// view renders the form at width w.
func (f *settingsForm) view(st kit.Styles, w int) string {
	var b strings.Builder
	b.WriteString(st.Title.Render(f.title) + "\n")
	if f.intro != "" {
		b.WriteString(wrapIndent(st.Muted.Render, f.intro, 0, w) + "\n")
	}
	b.WriteString("\n")
	labelW := 0
	for _, fl := range f.fields {
		labelW = max(labelW, len(fl.label))
	}
	for i := range f.fields {
		fl := &f.fields[i]
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
		b.WriteString(marker + label + "  " + val + "\n")
		if fl.help != "" && i == f.cur {
			b.WriteString(wrapIndent(st.Muted.Render, fl.help, labelW+4, w) + "\n")
		}
		if fl.err != "" {
			b.WriteString(wrapIndent(st.Error.Render, "✗ "+fl.err, labelW+4, w) + "\n")
		}
		if fl.warn != "" && fl.value() != "" {
			b.WriteString(wrapIndent(st.Warn.Render, "⚠ "+fl.warn, labelW+4, w) + "\n")
		}
	}
	if f.Extra != "" {
		b.WriteString("\n" + f.Extra + "\n")
	}
	if f.err != "" {
		b.WriteString("\n" + wrapIndent(st.Error.Render, "✗ "+f.err, 0, w) + "\n")
	}
	if f.busy {
		b.WriteString("\n" + st.Muted.Render("saving…") + "\n")
	}
	b.WriteString("\n" + st.Muted.Render("tab/enter next field · shift+tab back · ctrl+s save · esc cancel"))
	return b.String()
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
