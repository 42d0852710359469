package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"
)

// DefaultSession is the chat session the TUI opens.
const DefaultSession = "tui/default"

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// chatPane shows one session's conversation and streams replies.
type chatPane struct {
	m       *Model
	w, h    int
	focused bool
	session string
	msgs    []ChatMessage
	cache   map[int]string // rendered message index → lines, for width cacheW
	cacheW  int
	md      *glamour.TermRenderer
	input   textinput.Model
	history []string
	histIdx int
	scroll  int // lines scrolled up from the bottom
	expand  bool

	busy    bool
	frame   int
	cancel  context.CancelFunc
	stream  <-chan ChatEvent
	partial int // index of the assistant message being streamed, -1 if none

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

func newChatPane(m *Model) *chatPane {
	in := textinput.New()
	in.Placeholder = "Ask Alice… (/help for commands)"
	in.Prompt = "› "
	in.CharLimit = 8000
	c := &chatPane{m: m, session: DefaultSession, input: in, cache: map[int]string{}, partial: -1}
	return c
}

func (c *chatPane) SetSize(w, h int) {
	c.w, c.h = w, h
	c.input.SetWidth(w - 4)
	if w != c.cacheW {
		c.invalidate()
	}
}

func (c *chatPane) Focus()          { c.focused = true; c.input.Focus() }
func (c *chatPane) Blur()           { c.focused = false; c.input.Blur() }
func (c *chatPane) Capturing() bool { return true }

func (c *chatPane) invalidate() {
	c.cache = map[int]string{}
	c.cacheW = c.w
	c.md = nil
}

func (c *chatPane) ShortHelp() []key.Binding {
	k := c.m.keys.Chat
	return []key.Binding{k.Send, k.HistoryUp, k.HistoryDown, k.ScrollUp, k.ScrollDown, k.ToggleTools, k.Sessions, k.Cancel}
}

// load fetches the current session's history.
func (c *chatPane) load() tea.Cmd {
	core, session := c.m.core, c.session
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
			c.invalidate()
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
		c.input.SetValue(c.input.Value() + msg.Content)
		c.input.CursorEnd()
		return nil
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			c.scroll += 3
		} else if c.scroll -= 3; c.scroll < 0 {
			c.scroll = 0
		}
		return nil
	case tea.KeyPressMsg:
		return c.onKey(msg)
	}
	return nil
}

func (c *chatPane) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := c.m.keys.Chat
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
	case key.Matches(msg, k.HistoryUp):
		if len(c.history) > 0 && c.histIdx > 0 {
			c.histIdx--
			c.input.SetValue(c.history[c.histIdx])
			c.input.CursorEnd()
		}
		return nil
	case key.Matches(msg, k.HistoryDown):
		if c.histIdx < len(c.history)-1 {
			c.histIdx++
			c.input.SetValue(c.history[c.histIdx])
		} else {
			c.histIdx = len(c.history)
			c.input.SetValue("")
		}
		c.input.CursorEnd()
		return nil
	case key.Matches(msg, k.ScrollUp):
		c.scroll += max(1, c.h/2)
		return nil
	case key.Matches(msg, k.ScrollDown):
		c.scroll = max(0, c.scroll-max(1, c.h/2))
		return nil
	case key.Matches(msg, k.ToggleTools):
		c.expand = !c.expand
		c.invalidate()
		return nil
	case key.Matches(msg, k.Sessions):
		core := c.m.core
		return func() tea.Msg { l, err := core.Sessions(); return chatSessionsMsg{l, err} }
	}
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(msg)
	return cmd
}

// writable reports whether the TUI may post into the session: its own
// tui/* sessions only. Other channels' sessions (telegram/…, heartbeat)
// are shown read-only so a reply never lands in someone else's thread.
func (c *chatPane) writable() bool { return strings.HasPrefix(c.session, "tui/") }

func (c *chatPane) switchTo(session string) tea.Cmd {
	c.session, c.msgs, c.scroll = session, nil, 0
	c.invalidate()
	return tea.Batch(c.load(), func() tea.Msg { return flashMsg("session " + session) })
}

// submit handles slash commands or starts an agent turn.
func (c *chatPane) submit() tea.Cmd {
	text := strings.TrimSpace(c.input.Value())
	if text == "" {
		return nil
	}
	c.input.SetValue("")
	c.history = append(c.history, text)
	c.histIdx = len(c.history)
	if strings.HasPrefix(text, "/") {
		return c.command(text)
	}
	if c.busy {
		return errCmd(fmt.Errorf("Alice is still replying; esc stops the reply"))
	}
	if !c.writable() {
		return errCmd(fmt.Errorf("%s is read-only here; /new <name> opens a TUI session", c.session))
	}
	c.msgs = append(c.msgs, ChatMessage{Role: RoleUser, Text: text, Time: c.m.now()})
	c.busy, c.scroll, c.partial = true, 0, -1
	ctx, cancel := context.WithCancel(c.m.ctx)
	c.cancel = cancel
	core, session := c.m.core, c.session
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
		core, session := c.m.core, c.session
		return func() tea.Msg {
			if err := core.Compact(c.m.ctx, session); err != nil {
				return errMsg{err}
			}
			return flashMsg("session compacted")
		}
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
		core := c.m.core
		return func() tea.Msg { l, err := core.Sessions(); return chatSessionsMsg{l, err} }
	case "/clear":
		c.msgs = nil
		c.invalidate()
		return nil
	case "/help":
		c.msgs = append(c.msgs, ChatMessage{Role: RoleSystem, Text: "Commands: /compact · /new <name> · /session <id> · /sessions · /clear · /help. " +
			"Keys: ctrl+s sessions, ctrl+o expand tool calls, pgup/pgdn scroll, esc stops a reply."})
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
	switch ev.Kind {
	case ChatDelta:
		if c.partial < 0 {
			c.msgs = append(c.msgs, ChatMessage{Role: RoleAssistant, Time: c.m.now()})
			c.partial = len(c.msgs) - 1
		}
		c.msgs[c.partial].Text += ev.Text
		delete(c.cache, c.partial)
	case ChatToolUse:
		c.partial = -1
		c.msgs = append(c.msgs, ChatMessage{Role: RoleTool, Tool: ev.Tool, ToolID: ev.ToolID, Input: ev.Input, Time: c.m.now()})
	case ChatImage:
		c.partial = -1
		c.msgs = append(c.msgs, ChatMessage{Role: RoleImage, Text: ev.Text, Time: c.m.now()})
	case ChatToolResult:
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
				delete(c.cache, i)
				break
			}
		}
	case ChatDone:
		if c.partial >= 0 && strings.TrimSpace(ev.Text) != "" && strings.TrimSpace(c.msgs[c.partial].Text) != strings.TrimSpace(ev.Text) {
			c.msgs[c.partial].Text = ev.Text
			delete(c.cache, c.partial)
		} else if c.partial < 0 && strings.TrimSpace(ev.Text) != "" {
			c.msgs = append(c.msgs, ChatMessage{Role: RoleAssistant, Text: ev.Text, Time: c.m.now()})
		}
		c.finish()
		return nil
	case ChatError:
		c.msgs = append(c.msgs, ChatMessage{Role: RoleSystem, Text: ev.Text, IsError: true, Time: c.m.now()})
		c.finish()
		return nil
	}
	return c.next()
}

func (c *chatPane) finish() {
	c.busy, c.stream, c.partial = false, nil, -1
	if c.cancel != nil {
		c.cancel()
		c.cancel = nil
	}
}
