package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"
)

// DefaultSession is the chat session the TUI opens.
const DefaultSession = "tui/default"

// chatPane shows one session's conversation and streams replies.
type chatPane struct {
	m       host
	core    chatCore
	w, h    int
	focused bool
	session string
	msgs    []ChatMessage
	view    transcriptView
	md      *glamour.TermRenderer
	input   textarea.Model
	pasted  []pastedBlock
	history []string
	histIdx int
	expand  bool
	summary bool // compaction summaries expanded

	busy    bool
	frame   int
	cancel  context.CancelFunc
	stream  <-chan ChatEvent
	partial int // index of the assistant message being streamed, -1 if none
	// stream caches the finished paragraphs of the streamed reply.
	streamMD struct {
		n, width int
		lines    []string
	}

	picking  bool
	sessions []string
	pickIdx  int
}

type chatHistoryMsg struct {
	session string
	msgs    []ChatMessage
	err     error
}
type chatStreamMsg struct{ ch <-chan ChatEvent }
type chatEventMsg struct {
	ev ChatEvent
	ok bool
}
type chatSpinMsg struct{}
type chatSessionsMsg struct {
	list []string
	err  error
}

func newChatPane(m host, core chatCore) *chatPane {
	c := &chatPane{m: m, core: core, session: DefaultSession, input: newChatInput(*m.styles()), partial: -1}
	c.view.follow = true
	return c
}

func (c *chatPane) SetSize(w, h int) {
	c.w, c.h = w, h
	c.input.SetWidth(w)
	if w != c.view.width {
		c.invalidate()
	}
}

func (c *chatPane) Focus()          { c.focused = true; c.input.Focus() }
func (c *chatPane) Blur()           { c.focused = false; c.input.Blur() }
func (c *chatPane) Capturing() bool { return true }

// invalidate drops every rendered message (width or style changed).
func (c *chatPane) invalidate() {
	c.view.reset(len(c.msgs), c.w)
	c.md = nil
	c.input.SetStyles(c.m.styles().Input)
}

// replaced is called after c.msgs was swapped wholesale.
func (c *chatPane) replaced() {
	c.invalidate()
	c.view.follow = true
}

func (c *chatPane) ShortHelp() []key.Binding {
	k := c.m.keyMap().Chat
	return []key.Binding{k.Send, k.Newline, k.HistoryUp, k.Editor, k.ScrollUp, k.ScrollDown, k.Top, k.Bottom,
		k.ToggleTools, k.Summary, k.Sessions, k.Cancel, k.ClearLine, k.DeleteWord}
}

// load fetches the current session's history.
func (c *chatPane) load() tea.Cmd {
	core, session := c.core, c.session
	return func() tea.Msg {
		msgs, err := core.History(session, 200)
		return chatHistoryMsg{session, msgs, err}
	}
}

func (c *chatPane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case chatHistoryMsg:
		if msg.session != c.session {
			return nil
		}
		if msg.err != nil {
			return errCmd(msg.err)
		}
		if !c.busy {
			c.msgs = msg.msgs
			c.replaced()
		}
		return nil
	case chatSessionsMsg:
		if msg.err != nil {
			return errCmd(msg.err)
		}
		c.sessions, c.picking, c.pickIdx = msg.list, true, 0
		for i, s := range msg.list {
			if s == c.session {
				c.pickIdx = i
			}
		}
		return nil
	case chatStreamMsg:
		c.stream = msg.ch
		return c.next()
	case chatEventMsg:
		return c.onEvent(msg)
	case chatSpinMsg:
		if !c.busy {
			return nil
		}
		c.frame++
		return c.spin()
	case tea.PasteMsg:
		return c.onPaste(msg.Content)
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			c.scrollBy(-3)
		} else {
			c.scrollBy(3)
		}
		return nil
	case editorReadyMsg:
		return runEditor(msg.path)
	case editorDoneMsg:
		if msg.err != nil {
			return errCmd(msg.err)
		}
		if strings.TrimSpace(msg.text) == "" {
			return func() tea.Msg { return flashMsg("the message is empty") }
		}
		c.input.SetValue(msg.text)
		c.relayout()
		return nil
	case chatCompactedMsg:
		c.m.endWork("compact")
		if msg.err != nil {
			return errCmd(msg.err)
		}
		if msg.session != c.session {
			return nil
		}
		return tea.Batch(c.load(), func() tea.Msg { return flashMsg("Session compacted; ctrl+r shows the summary") })
	case tea.KeyPressMsg:
		return c.onKey(msg)
	}
	return nil
}

func (c *chatPane) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := c.m.keyMap().Chat
	if c.picking {
		switch msg.String() {
		case "up", "k":
			if c.pickIdx > 0 {
				c.pickIdx--
			}
		case "down", "j":
			if c.pickIdx < len(c.sessions)-1 {
				c.pickIdx++
			}
		case "enter":
			c.picking = false
			if c.pickIdx < len(c.sessions) {
				return c.switchTo(c.sessions[c.pickIdx])
			}
		case "esc", "ctrl+s":
			c.picking = false
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Send):
		return c.submit()
	case key.Matches(msg, k.Cancel):
		if c.busy && c.cancel != nil {
			c.cancel()
			return func() tea.Msg { return flashMsg("stopping the reply…") }
		}
		return nil
	case key.Matches(msg, k.HistoryUp) && c.historyKey(true):
		return nil
	case key.Matches(msg, k.HistoryDown) && c.historyKey(false):
		return nil
	case key.Matches(msg, k.ScrollUp):
		c.scrollBy(-max(1, c.h/2))
		return nil
	case key.Matches(msg, k.ScrollDown):
		c.scrollBy(max(1, c.h/2))
		return nil
	case key.Matches(msg, k.Top):
		c.view.top()
		return nil
	case key.Matches(msg, k.Bottom):
		c.view.follow = true
		return nil
	case key.Matches(msg, k.ToggleTools):
		c.expand = !c.expand
		c.invalidate()
		return nil
	case key.Matches(msg, k.Summary):
		c.summary = !c.summary
		c.invalidate()
		return nil
	case key.Matches(msg, k.Editor):
		return c.openEditor()
	case msg.String() == "backspace" && c.input.Value() == "" && len(c.pasted) > 0:
		c.pasted = c.pasted[:len(c.pasted)-1]
		return nil
	case key.Matches(msg, k.Sessions):
		core := c.core
		return func() tea.Msg { l, err := core.Sessions(); return chatSessionsMsg{l, err} }
	}
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(msg)
	c.relayout()
	return cmd
}

// writable reports whether the TUI may post into the session: its own
// tui/* sessions only. Other channels' sessions (telegram/…, heartbeat)
// are shown read-only so a reply never lands in someone else's thread.
func (c *chatPane) writable() bool { return strings.HasPrefix(c.session, "tui/") }

func (c *chatPane) switchTo(session string) tea.Cmd {
	c.session, c.msgs = session, nil
	c.replaced()
	return tea.Batch(c.load(), func() tea.Msg { return flashMsg("session " + session) })
}

// submit handles slash commands or starts an agent turn.
func (c *chatPane) submit() tea.Cmd {
	text := c.message()
	if text == "" {
		return nil
	}
	if strings.HasPrefix(text, "/") && len(c.pasted) == 0 {
		c.input.SetValue("")
		c.relayout()
		c.history = append(c.history, text)
		c.histIdx = len(c.history)
		return c.command(text)
	}
	if c.busy {
		return errCmd(fmt.Errorf("Alice is still replying; esc stops the reply"))
	}
	if !c.writable() {
		return errCmd(fmt.Errorf("%s is read-only here; /new <name> opens a TUI session", c.session))
	}
	c.input.SetValue("")
	c.pasted = nil
	c.relayout()
	c.history = append(c.history, text)
	c.histIdx = len(c.history)
	c.msgs = append(c.msgs, ChatMessage{Role: RoleUser, Text: text, Time: c.m.clock()})
	c.view.grow(len(c.msgs))
	c.view.follow = true
	c.busy, c.partial = true, -1
	ctx, cancel := context.WithCancel(c.m.appContext())
	c.cancel = cancel
	core, session := c.core, c.session
	start := func() tea.Msg {
		ch, err := core.Send(ctx, session, text)
		if err != nil {
			return chatEventMsg{ev: ChatEvent{Kind: ChatError, Text: err.Error()}, ok: true}
		}
		return chatStreamMsg{ch}
	}
	return tea.Batch(start, c.spin())
}

func (c *chatPane) command(text string) tea.Cmd {
	fields := strings.Fields(text)
	switch fields[0] {
	case "/compact":
		if c.busy {
			return errCmd(fmt.Errorf("Alice is still replying; compact after the reply (esc stops it)"))
		}
		core, session, ctx := c.core, c.session, c.m.appContext()
		return tea.Batch(c.m.beginWork("compact", "compacting "+session), func() tea.Msg {
			return chatCompactedMsg{session, core.Compact(ctx, session)}
		})
	case "/new", "/session":
		if len(fields) < 2 {
			return errCmd(fmt.Errorf("usage: %s <name>", fields[0]))
		}
		name := fields[1]
		if !strings.Contains(name, "/") {
			name = "tui/" + name
		}
		return c.switchTo(name)
	case "/sessions":
		core := c.core
		return func() tea.Msg { l, err := core.Sessions(); return chatSessionsMsg{l, err} }
	case "/clear":
		c.msgs = nil
		c.replaced()
		return nil
	case "/help":
		c.msgs = append(c.msgs, ChatMessage{Role: RoleSystem, Text: "Commands: /compact · /new <name> · /session <id> · /sessions · /clear · /help.\n" +
			"Keys: ctrl+j newline · ctrl+e edit in $EDITOR · ctrl+s sessions · ctrl+o expand tool calls · pgup/pgdn scroll · esc stops a reply · ctrl+p every command."})
		c.view.grow(len(c.msgs))
		c.view.follow = true
		return nil
	}
	return errCmd(fmt.Errorf("unknown command %s (try /help)", fields[0]))
}

func (c *chatPane) spin() tea.Cmd {
	return tea.Tick(100*time.Millisecond, func(time.Time) tea.Msg { return chatSpinMsg{} })
}

func (c *chatPane) next() tea.Cmd {
	ch := c.stream
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		return chatEventMsg{ev, ok}
	}
}

// onEvent folds one stream event into the transcript.
func (c *chatPane) onEvent(msg chatEventMsg) tea.Cmd {
	if !msg.ok {
		c.finish()
		return nil
	}
	ev := msg.ev
	var work tea.Cmd
	switch ev.Kind {
	case ChatDelta:
		if c.partial < 0 {
			c.add(ChatMessage{Role: RoleAssistant, Time: c.m.clock()})
			c.partial = len(c.msgs) - 1
		}
		c.msgs[c.partial].Text += ev.Text
		c.view.drop(c.partial)
	case ChatToolUse:
		c.partial = -1
		c.add(ChatMessage{Role: RoleTool, Tool: ev.Tool, ToolID: ev.ToolID, Input: ev.Input, Time: c.m.clock()})
		work = c.m.beginWork("tool:"+ev.ToolID+ev.Tool, "running "+ev.Tool)
	case ChatImage:
		c.partial = -1
		c.add(ChatMessage{Role: RoleImage, Text: ev.Text, Time: c.m.clock()})
	case ChatToolResult:
		c.m.endWork("tool:" + ev.ToolID + ev.Tool)
		// Pair by call id when the core gives one (parallel calls of the
		// same tool), else by name: the newest unanswered call.
		for i := len(c.msgs) - 1; i >= 0; i-- {
			mm := c.msgs[i]
			same := mm.Tool == ev.Tool
			if ev.ToolID != "" && mm.ToolID != "" {
				same = mm.ToolID == ev.ToolID
			}
			if mm.Role == RoleTool && same && mm.Output == "" {
				c.msgs[i].Output, c.msgs[i].IsError = ev.Output, ev.IsError
				c.view.drop(i)
				break
			}
		}
	case ChatDone:
		if c.partial >= 0 && strings.TrimSpace(ev.Text) != "" && strings.TrimSpace(c.msgs[c.partial].Text) != strings.TrimSpace(ev.Text) {
			c.msgs[c.partial].Text = ev.Text
			c.view.drop(c.partial)
		} else if c.partial < 0 && strings.TrimSpace(ev.Text) != "" {
			c.add(ChatMessage{Role: RoleAssistant, Text: ev.Text, Time: c.m.clock()})
		}
		c.finish()
		return nil
	case ChatError:
		if stopped := friendlyText(ev.Text) == "Stopped."; stopped {
			c.add(ChatMessage{Role: RoleSystem, Text: "Reply stopped.", Time: c.m.clock()})
		} else {
			c.add(ChatMessage{Role: RoleSystem, Text: friendlyText(ev.Text), IsError: true, Time: c.m.clock()})
		}
		c.finish()
		return nil
	}
	return tea.Batch(work, c.next())
}

// add appends one message to the transcript.
func (c *chatPane) add(m ChatMessage) {
	c.msgs = append(c.msgs, m)
	c.view.grow(len(c.msgs))
}

// chatCompactedMsg reports the end of a /compact.
type chatCompactedMsg struct {
	session string
	err     error
}

func (c *chatPane) finish() {
	c.streamMD.lines = nil
	if c.partial >= 0 {
		c.view.drop(c.partial) // re-render the last streamed message once, cached
	}
	c.busy, c.stream, c.partial = false, nil, -1
	c.m.endWorkPrefix("tool:")
	if c.cancel != nil {
		c.cancel()
		c.cancel = nil
	}
}
