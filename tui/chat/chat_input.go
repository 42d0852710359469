package chat

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// The chat input: a textarea that grows to inputMaxLines, enter sends,
// ctrl+j / alt+enter / shift+enter insert a newline, bracketed paste keeps
// its newlines and a very large paste becomes a collapsed attachment.

const (
	inputMaxLines = 6
	// inputMaxContent bounds a draft's rows (soft-wrapped ones included);
	// a larger paste is attached (pasteMaxLines × pasteMaxCols fits).
	inputMaxContent = 10000
	// A paste over pasteMaxLines lines or with a line over pasteMaxCols
	// columns is attached instead of typed (as crush does).
	pasteMaxLines = 10
	pasteMaxCols  = 1000
)

// tabMark stands for a tab in the input: the textarea turns a tab into
// four spaces, so a pasted (or recalled, or edited) tab is shown as this
// mark and becomes a tab again in what is sent, stored and edited.
const tabMark = "⇥"

// toInput is text as the input holds it; fromInput undoes it.
func toInput(s string) string   { return strings.ReplaceAll(s, "\t", tabMark) }
func fromInput(s string) string { return strings.ReplaceAll(s, tabMark, "\t") }

// draft is the input's text as typed, tabs included.
func (c *Pane) draft() string { return fromInput(c.Input.Value()) }

// setInput replaces the input's text, keeping its tabs.
func (c *Pane) setInput(s string) { c.Input.SetValue(toInput(s)) }

// pastedBlock is a large paste sent with the next message.
type pastedBlock struct {
	name string
	text string
}

// lines counts the paste's lines; a file's final newline ends its last
// line rather than starting another.
func (b pastedBlock) lines() int { return strings.Count(strings.TrimRight(b.text, "\n"), "\n") + 1 }

func newChatInput(st kit.Styles) textarea.Model {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Placeholder = "Ask Alice… (/help for commands)"
	ta.CharLimit = 0
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = inputMaxLines
	// MaxHeight is only how many rows show (fitInput lowers it on a short
	// pane); without MaxContentHeight the textarea would also refuse a
	// newline once the draft has MaxHeight lines.
	ta.MaxContentHeight = inputMaxContent
	ta.SetPromptFunc(2, func(pi textarea.PromptInfo) string {
		if pi.LineNumber == 0 {
			return "› "
		}
		return "  "
	})
	km := textarea.DefaultKeyMap()
	// enter sends (the pane handles it); these insert a newline instead.
	km.InsertNewline = key.NewBinding(key.WithKeys("ctrl+j", "alt+enter", "shift+enter"))
	km.LineEnd = key.NewBinding(key.WithKeys("end")) // ctrl+e opens $EDITOR
	km.LinePrevious = key.NewBinding(key.WithKeys("up"))
	km.LineNext = key.NewBinding(key.WithKeys("down"))
	ta.KeyMap = km
	ta.SetStyles(st.Input)
	ta.SetHeight(1)
	return ta
}

// onPaste types a paste into the input, keeping newlines; a very large one
// is attached as a block shown collapsed above the input.
func (c *Pane) onPaste(text string) tea.Cmd {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	if isLargePaste(text) {
		c.Pasted = append(c.Pasted, pastedBlock{name: fmt.Sprintf("paste %d", len(c.Pasted)+1), text: text})
		c.relayout()
		return nil
	}
	c.Input.InsertString(toInput(text))
	c.relayout()
	return nil
}

func isLargePaste(text string) bool {
	if strings.Count(text, "\n") >= pasteMaxLines {
		return true
	}
	for _, l := range strings.Split(text, "\n") {
		if len(l) > pasteMaxCols {
			return true
		}
	}
	return false
}

// message is what enter sends: the typed text plus any attached pastes.
func (c *Pane) message() string {
	text := strings.TrimSpace(c.draft())
	for _, b := range c.Pasted {
		if text != "" {
			text += "\n\n"
		}
		text += b.text
	}
	return text
}

// attachmentsView is the one-line summary of attached pastes.
func (c *Pane) attachmentsView() string {
	if len(c.Pasted) == 0 {
		return ""
	}
	parts := make([]string, len(c.Pasted))
	for i, b := range c.Pasted {
		parts[i] = c.m.Styles().Selected.Render(fmt.Sprintf(" ▤ %s · %s ", b.name, kit.Plural(b.lines(), "line")))
	}
	return strings.Join(parts, " ") + c.m.Styles().Muted.Render("  backspace on an empty input removes the last paste")
}

// relayout refreshes what depends on the input: the textarea sizes itself
// to its visual rows — soft-wrapped ones included — up to inputMaxLines
// (DynamicHeight), then scrolls; the completion list follows the text.
func (c *Pane) relayout() {
	c.comp.update(c.Input.Value(), c.channelLabels())
	c.fitInput()
}

// inputRows is how many rows the input may show: inputMaxLines, fewer on
// a short pane, so that the header, one transcript row, the attachments
// row and the separator keep their place and the input is never cut off
// below (the textarea scrolls to keep the cursor line in view).
func (c *Pane) inputRows() int {
	rows := c.h - 3
	if len(c.Pasted) > 0 {
		rows--
	}
	return max(1, min(inputMaxLines, rows))
}

// fitInput applies inputRows to the textarea (its height follows at once).
func (c *Pane) fitInput() {
	if rows := c.inputRows(); c.Input.MaxHeight != rows {
		c.Input.MaxHeight = rows
		c.Input.SetWidth(c.w) // recomputes the height and the scroll
	}
}

// remember records a sent message for ↑ recall, with its pastes.
func (c *Pane) remember(text string, pasted []pastedBlock) {
	c.history = append(c.history, historyEntry{text: text, pasted: append([]pastedBlock(nil), pasted...)})
	c.histIdx = len(c.history)
}

// recall puts a history entry back: its typed text in the input and its
// pastes attached, collapsed, as they were sent.
func (c *Pane) recall(e historyEntry) {
	c.setInput(e.text)
	c.Pasted = append([]pastedBlock(nil), e.pasted...)
}

// editorDoneMsg returns the text edited in $EDITOR.
type editorDoneMsg struct {
	text string
	err  error
}

// EditorCommand builds the $VISUAL/$EDITOR command line for path.
func EditorCommand(path string) *exec.Cmd {
	ed := os.Getenv("VISUAL")
	if ed == "" {
		ed = os.Getenv("EDITOR")
	}
	if ed == "" {
		ed = "vi"
	}
	args := strings.Fields(ed)
	return exec.Command(args[0], append(args[1:], path)...)
}

// openEditor writes the draft to a temp file (in a Cmd), then runs the
// editor on the real terminal and reads the result back.
func (c *Pane) openEditor() tea.Cmd {
	draft := c.draft()
	return func() tea.Msg {
		f, err := os.CreateTemp("", "alice-message-*.md")
		if err != nil {
			return editorDoneMsg{err: err}
		}
		_, err = f.WriteString(draft)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(f.Name())
			return editorDoneMsg{err: err}
		}
		return EditorReadyMsg{Path: f.Name()}
	}
}

// EditorReadyMsg: the draft file exists; run the editor on it.
type EditorReadyMsg struct{ Path string }

func runEditor(path string) tea.Cmd {
	return tea.ExecProcess(EditorCommand(path), func(err error) tea.Msg { return EditorFinished(path, err) })
}

// EditorFinished reads the edited file back and removes it.
func EditorFinished(path string, err error) tea.Msg {
	defer os.Remove(path)
	if err != nil {
		return editorDoneMsg{err: fmt.Errorf("the editor failed: %w", err)}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return editorDoneMsg{err: err}
	}
	return editorDoneMsg{text: strings.TrimRight(string(b), "\n")}
}

// historyKey handles ↑/↓: input history only from the first (↑) or last
// (↓) line, so moving inside a multi-line draft still works.
func (c *Pane) historyKey(up bool) bool {
	if up {
		if c.Input.Line() != 0 || len(c.history) == 0 || c.histIdx == 0 {
			return false
		}
		c.histIdx--
		c.recall(c.history[c.histIdx])
		c.relayout()
		return true
	}
	if c.Input.Line() != c.Input.LineCount()-1 || c.histIdx >= len(c.history) {
		return false
	}
	c.histIdx++
	if c.histIdx < len(c.history) {
		c.recall(c.history[c.histIdx])
	} else {
		c.Input.SetValue("")
		c.Pasted = nil
	}
	c.relayout()
	return true
}

// completionKey handles keys while the slash-command list is shown: tab
// completes, ↑/↓ move, esc hides it, enter completes a partial command
// name (a complete one is sent as typed). ok is false for other keys.
func (c *Pane) completionKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !c.comp.visible() {
		return nil, false
	}
	if key.Matches(msg, c.m.KeyMap().Chat.Complete) {
		c.applyCompletion()
		return nil, true
	}
	switch msg.String() {
	case "up":
		c.comp.move(-1)
		return nil, true
	case "down":
		c.comp.move(1)
		return nil, true
	case "esc":
		c.comp.hide = true
		return nil, true
	case "enter":
		it := c.comp.items[c.comp.idx]
		typed := strings.TrimSpace(c.Input.Value())
		if strings.TrimSpace(it.insert) == typed || !strings.HasPrefix(strings.TrimSpace(it.insert), typed) {
			return nil, false
		}
		// A partial command name: complete it; a complete argument-less
		// command runs at once.
		c.applyCompletion()
		if !strings.HasSuffix(it.insert, " ") || completesWithoutArgs(it.insert) {
			return c.submit(), true
		}
		return nil, true
	}
	return nil, false
}

func (c *Pane) applyCompletion() {
	it := c.comp.items[c.comp.idx]
	c.Input.SetValue(it.insert)
	c.Input.CursorEnd()
	c.relayout()
}

// completesWithoutArgs reports commands that take no argument.
func completesWithoutArgs(insert string) bool {
	for _, sc := range slashCommands {
		if sc.name+" " == insert {
			return sc.args == ""
		}
	}
	return false
}
