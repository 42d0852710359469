package chat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/core/mdterm"
	"github.com/alice-trading/alice/tui/kit"
)

// DefaultSession is the chat session the TUI opens.
const DefaultSession = "tui/default"

// chatPane shows one session's conversation and streams replies.
type Pane struct {
	m          kit.Host
	core       Core
	w, h       int
	focused    bool
	Session    string
	Msgs       []ChatMessage
	Transcript transcriptView
	md         *mdterm.Renderer
	Input      textarea.Model
	Pasted     []pastedBlock
	history    []historyEntry
	histIdx    int
	expand     bool
	summary    bool // compaction summaries expanded

	Busy    bool
	frame   int
	Cancel  context.CancelFunc
	stream  <-chan ChatEvent
	Partial int // index of the assistant message being streamed, -1 if none
	// stream caches the finished paragraphs of the streamed reply.
	streamMD struct {
		n, width int
		lines    []string
	}

	// browser is the session browser (ctrl+s); channels the chat
	// channels (header, /channel, completion); comp the slash-command
	// completion list.
	browser  browser
	channels []ChannelInfo
	comp     completion
}

// Modal makes the root hand every key (tab, esc…) to the pane while the
// session browser or the completion list is open.
func (c *Pane) Modal() bool { return c.browser.open || c.comp.visible() }

// BrowserOpen reports whether the session browser is shown.
func (c *Pane) BrowserOpen() bool { return c.browser.open }

// historyEntry is one sent message for ↑ recall: the typed text and the
// pastes that went with it (recalled collapsed, as they were sent).
type historyEntry struct {
	text   string
	pasted []pastedBlock
}

type chatHistoryMsg struct {
	session string
	msgs    []ChatMessage
	err     error
}
type ChatStreamMsg struct{ Ch <-chan ChatEvent }
type ChatEventMsg struct {
	ev ChatEvent
	Ok bool
}
type ChatSpinMsg struct{}

func New(m kit.Host, core Core) *Pane {
	c := &Pane{m: m, core: core, Session: DefaultSession, Input: newChatInput(*m.Styles()), Partial: -1, browser: newBrowser()}
	c.Transcript.Follow = true
	return c
}

func (c *Pane) SetSize(w, h int) {
	c.w, c.h = w, h
	c.Input.SetWidth(w)
	c.fitInput()
	if w != c.Transcript.width {
		c.Invalidate()
	}
}

func (c *Pane) Focus()          { c.focused = true; c.Input.Focus() }
func (c *Pane) Blur()           { c.focused = false; c.Input.Blur() }
func (c *Pane) Capturing() bool { return true }

// Invalidate drops every rendered message (width or style changed).
func (c *Pane) Invalidate() {
	c.Transcript.reset(len(c.Msgs), c.w)
	c.md = nil
	c.Input.SetStyles(c.m.Styles().Input)
}

// Replaced is called after c.msgs was swapped wholesale.
func (c *Pane) Replaced() {
	c.Invalidate()
	c.Transcript.Follow = true
}

func (c *Pane) ShortHelp() []key.Binding {
	k := c.m.KeyMap().Chat
	if c.browser.open {
		return browserHelp
	}
	return []key.Binding{k.Send, k.Newline, k.HistoryUp, k.Editor, k.ScrollUp, k.ScrollDown, k.Top, k.Bottom,
		k.ToggleTools, k.Summary, k.Sessions, k.Cancel, k.ClearLine, k.DeleteWord, k.Complete}
}

// AllKeys is what help lists: the footer's keys and alt+enter.
func (c *Pane) AllKeys() []key.Binding {
	k := c.m.KeyMap().Chat
	return []key.Binding{k.Send, k.Newline, k.NewlineAlt, k.HistoryUp, k.HistoryDown, k.Editor, k.ScrollUp, k.ScrollDown, k.Top, k.Bottom,
		k.ToggleTools, k.Summary, k.Sessions, k.Cancel, k.ClearLine, k.DeleteWord, k.Complete}
}

// Load fetches the current session's history.
func (c *Pane) Load() tea.Cmd {
	core, session := c.core, c.Session
	return tea.Batch(func() tea.Msg {
		msgs, err := core.History(session, 200)
		return chatHistoryMsg{session, msgs, err}
	}, c.loadChannels())
}

func (c *Pane) Update(msg tea.Msg) tea.Cmd {
	if cmd, ok := c.onBrowserMsg(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case channelsMsg:
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		c.channels = msg.list
		return nil
	case switchChannelMsg:
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		c.browser.open = false
		return tea.Batch(c.switchTo(msg.ch.Session), c.loadChannels(), kit.FlashCmd("channel "+msg.ch.Label))
	case sessionFoundMsg:
		return c.switchTo(msg.session)
	case chatHistoryMsg:
		if msg.session != c.Session {
			return nil
		}
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		if !c.Busy {
			c.Msgs = msg.msgs
			c.Replaced()
		}
		return nil
	case ChatStreamMsg:
		c.stream = msg.Ch
		return c.next()
	case ChatEventMsg:
		return c.onEvent(msg)
	case ChatSpinMsg:
		if !c.Busy {
			return nil
		}
		c.frame++
		return c.spin()
	case tea.PasteMsg:
		if c.browser.open {
			return c.browserPaste(msg.Content)
		}
		return c.onPaste(msg.Content)
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			c.ScrollBy(-3)
		} else {
			c.ScrollBy(3)
		}
		return nil
	case EditorReadyMsg:
		return runEditor(msg.Path)
	case editorDoneMsg:
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		if strings.TrimSpace(msg.text) == "" {
			return func() tea.Msg { return kit.FlashMsg("the message is empty") }
		}
		c.setInput(msg.text)
		c.relayout()
		return nil
	case chatCompactedMsg:
		c.m.EndWork("compact")
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		if msg.session != c.Session {
			return nil
		}
		return tea.Batch(c.Load(), func() tea.Msg { return kit.FlashMsg("Session compacted; ctrl+r shows the summary") })
	case tea.KeyPressMsg:
		return c.onKey(msg)
	}
	return nil
}

func (c *Pane) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := c.m.KeyMap().Chat
	if c.browser.open {
		return c.onBrowserKey(msg)
	}
	if cmd, ok := c.completionKey(msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Send):
		return c.submit()
	case key.Matches(msg, k.Cancel):
		if c.Busy && c.Cancel != nil {
			c.Cancel()
			return func() tea.Msg { return kit.FlashMsg("stopping the reply…") }
		}
		return nil
	case key.Matches(msg, k.HistoryUp) && c.historyKey(true):
		return nil
	case key.Matches(msg, k.HistoryDown) && c.historyKey(false):
		return nil
	case key.Matches(msg, k.ScrollUp):
		c.ScrollBy(-max(1, c.h/2))
		return nil
	case key.Matches(msg, k.ScrollDown):
		c.ScrollBy(max(1, c.h/2))
		return nil
	case key.Matches(msg, k.Top):
		c.Transcript.Top()
		return nil
	case key.Matches(msg, k.Bottom):
		c.Transcript.Follow = true
		return nil
	case key.Matches(msg, k.ToggleTools):
		c.expand = !c.expand
		c.Invalidate()
		return nil
	case key.Matches(msg, k.Summary):
		c.summary = !c.summary
		c.Invalidate()
		return nil
	case key.Matches(msg, k.Editor):
		return c.openEditor()
	case msg.String() == "backspace" && c.Input.Value() == "" && len(c.Pasted) > 0:
		c.Pasted = c.Pasted[:len(c.Pasted)-1]
		return nil
	case key.Matches(msg, k.Sessions):
		return c.openBrowser()
	}
	var cmd tea.Cmd
	c.Input, cmd = c.Input.Update(msg)
	c.relayout()
	return cmd
}

// writable reports whether the TUI may post into the session: its own
// tui/* sessions only. Other channels' sessions (telegram/…, heartbeat)
// are shown read-only so a reply never lands in someone else's thread.
func (c *Pane) writable() bool { return strings.HasPrefix(c.Session, "tui/") }

// sessionFoundMsg answers /session: the session to open.
type sessionFoundMsg struct{ session string }

// openSession looks id up among the sessions (a bare channel id finds
// its tui/ session) and opens it; an unknown id is an error, not an
// empty chat named after it.
func (c *Pane) openSession(id string) tea.Cmd {
	core := c.core
	return func() tea.Msg {
		ids, err := core.Sessions()
		if err != nil {
			return kit.ErrMsg{Err: err}
		}
		for _, want := range []string{id, "tui/" + id} {
			if slices.Contains(ids, want) {
				return sessionFoundMsg{want}
			}
		}
		return kit.ErrMsg{Err: fmt.Errorf("no session %q; ctrl+s lists them", id)}
	}
}

func (c *Pane) switchTo(session string) tea.Cmd {
	c.Session, c.Msgs = session, nil
	c.Replaced()
	return c.Load()
}

// submit handles slash commands or starts an agent turn.
func (c *Pane) submit() tea.Cmd {
	text := c.message()
	if text == "" {
		return nil
	}
	if strings.HasPrefix(text, "/") && len(c.Pasted) == 0 {
		c.Input.SetValue("")
		c.relayout()
		c.remember(text, nil)
		return c.command(text)
	}
	if c.Busy {
		return kit.ErrCmd(fmt.Errorf("Alice is still replying; esc stops the reply"))
	}
	if !c.writable() {
		return kit.ErrCmd(fmt.Errorf("%s is read-only here; /channel new <name> opens a chat channel", c.Session))
	}
	c.remember(strings.TrimSpace(c.draft()), c.Pasted)
	c.Input.SetValue("")
	c.Pasted = nil
	c.relayout()
	c.Msgs = append(c.Msgs, ChatMessage{Role: RoleUser, Text: text, Time: c.m.Clock()})
	c.Transcript.grow(len(c.Msgs))
	c.Transcript.Follow = true
	c.Busy, c.Partial = true, -1
	ctx, cancel := context.WithCancel(c.m.AppContext())
	c.Cancel = cancel
	core, session := c.core, c.Session
	start := func() tea.Msg {
		ch, err := core.Send(ctx, session, text)
		if err != nil {
			return ChatEventMsg{ev: ChatEvent{Kind: ChatError, Text: err.Error()}, Ok: true}
		}
		return ChatStreamMsg{ch}
	}
	return tea.Batch(start, c.spin())
}

func (c *Pane) command(text string) tea.Cmd {
	fields := strings.Fields(text)
	switch fields[0] {
	case "/compact":
		if c.Busy {
			return kit.ErrCmd(fmt.Errorf("Alice is still replying; compact after the reply (esc stops it)"))
		}
		core, session, ctx := c.core, c.Session, c.m.AppContext()
		return tea.Batch(c.m.BeginWork("compact", "compacting "+session), func() tea.Msg {
			return chatCompactedMsg{session, core.Compact(ctx, session)}
		})
	case "/channel":
		return c.channelCommand(strings.TrimSpace(strings.TrimPrefix(text, "/channel")))
	case "/new":
		if len(fields) < 2 {
			return kit.ErrCmd(fmt.Errorf("usage: /new <channel name>"))
		}
		return c.channelCommand("new " + strings.TrimSpace(strings.TrimPrefix(text, "/new")))
	case "/session":
		if len(fields) < 2 {
			return kit.ErrCmd(fmt.Errorf("usage: /session <id>"))
		}
		return c.openSession(fields[1])
	case "/sessions":
		return c.openBrowser()
	case "/title":
		cc, ok := c.channelCore()
		if !ok {
			return kit.ErrCmd(errNoChannels)
		}
		title, session := strings.TrimSpace(strings.TrimPrefix(text, "/title")), c.Session
		return func() tea.Msg {
			if err := cc.SetSessionTitle(session, title); err != nil {
				return kit.ErrMsg{Err: err}
			}
			return kit.FlashMsg("session titled " + fmt.Sprintf("%q", title))
		}
	case "/clear":
		c.Msgs = nil
		c.Replaced()
		return nil
	case "/help":
		c.Msgs = append(c.Msgs, ChatMessage{Role: RoleSystem, Text: slashHelp() + "\n" +
			"Keys: ctrl+j newline · ctrl+e edit in $EDITOR · ctrl+s sessions · ctrl+o expand tool calls · pgup/pgdn scroll · esc stops a reply · ctrl+p every command."})
		c.Transcript.grow(len(c.Msgs))
		c.Transcript.Follow = true
		return nil
	}
	return kit.ErrCmd(fmt.Errorf("unknown command %s (try /help)", fields[0]))
}

func (c *Pane) spin() tea.Cmd {
	return tea.Tick(100*time.Millisecond, func(time.Time) tea.Msg { return ChatSpinMsg{} })
}

func (c *Pane) next() tea.Cmd {
	ch := c.stream
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		return ChatEventMsg{ev, ok}
	}
}

// onEvent folds one stream event into the transcript.
func (c *Pane) onEvent(msg ChatEventMsg) tea.Cmd {
	if !msg.Ok {
		c.finish()
		return nil
	}
	ev := msg.ev
	var work tea.Cmd
	switch ev.Kind {
	case ChatDelta:
		if c.Partial < 0 {
			c.add(ChatMessage{Role: RoleAssistant, Time: c.m.Clock()})
			c.Partial = len(c.Msgs) - 1
		}
		c.Msgs[c.Partial].Text += ev.Text
		c.Transcript.Drop(c.Partial)
	case ChatToolUse:
		c.Partial = -1
		c.add(ChatMessage{Role: RoleTool, Tool: ev.Tool, ToolID: ev.ToolID, Input: ev.Input, Time: c.m.Clock()})
		work = c.m.BeginWork("tool:"+ev.ToolID+ev.Tool, "running "+ev.Tool)
	case ChatImage:
		c.Partial = -1
		c.add(ChatMessage{Role: RoleImage, Text: ev.Text, Time: c.m.Clock()})
	case ChatToolResult:
		c.m.EndWork("tool:" + ev.ToolID + ev.Tool)
		// Pair by call id when the core gives one (parallel calls of the
		// same tool), else by name: the newest unanswered call.
		for i := len(c.Msgs) - 1; i >= 0; i-- {
			mm := c.Msgs[i]
			same := mm.Tool == ev.Tool
			if ev.ToolID != "" && mm.ToolID != "" {
				same = mm.ToolID == ev.ToolID
			}
			if mm.Role == RoleTool && same && mm.Output == "" {
				c.Msgs[i].Output, c.Msgs[i].IsError = ev.Output, ev.IsError
				c.Transcript.Drop(i)
				break
			}
		}
	case ChatDone:
		if c.Partial >= 0 && strings.TrimSpace(ev.Text) != "" && strings.TrimSpace(c.Msgs[c.Partial].Text) != strings.TrimSpace(ev.Text) {
			c.Msgs[c.Partial].Text = ev.Text
			c.Transcript.Drop(c.Partial)
		} else if c.Partial < 0 && strings.TrimSpace(ev.Text) != "" {
			c.add(ChatMessage{Role: RoleAssistant, Text: ev.Text, Time: c.m.Clock()})
		}
		c.finish()
		return nil
	case ChatError:
		if stopped := kit.FriendlyText(ev.Text) == "Stopped."; stopped {
			c.add(ChatMessage{Role: RoleSystem, Text: "Reply stopped.", Time: c.m.Clock()})
		} else {
			c.add(ChatMessage{Role: RoleSystem, Text: kit.FriendlyText(ev.Text), IsError: true, Time: c.m.Clock()})
		}
		c.finish()
		return nil
	}
	return tea.Batch(work, c.next())
}

// add appends one message to the transcript.
func (c *Pane) add(m ChatMessage) {
	c.Msgs = append(c.Msgs, m)
	c.Transcript.grow(len(c.Msgs))
}

// chatCompactedMsg reports the end of a /compact.
type chatCompactedMsg struct {
	session string
	err     error
}

func (c *Pane) finish() {
	c.streamMD.lines = nil
	if c.Partial >= 0 {
		c.Transcript.Drop(c.Partial) // re-render the last streamed message once, cached
	}
	c.Busy, c.stream, c.Partial = false, nil, -1
	c.m.EndWorkPrefix("tool:")
	if c.Cancel != nil {
		c.Cancel()
		c.Cancel = nil
	}
}
