package chat

import (
	"fmt"
	"strings"

	"github.com/alice-trading/alice/core/mdterm"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// Rendering for the chat pane. Each message renders once per width to a
// slice of lines (markdown rendering is the expensive part). The view is anchored
// either to the newest line (follow) or to a (message, line) position, so
// drawing any scroll position walks only the messages that are visible and
// scrolling walks only the messages it passes: no frame depends on how many
// messages sit above or below the screen.

// transcriptView is the per-width line cache plus the scroll anchor.
type transcriptView struct {
	width  int
	blocks [][]string // message index → rendered lines (nil: not rendered)
	Follow bool       // pinned to the newest line
	// When not following, the first visible line is line topLine of
	// message topMsg.
	TopMsg, TopLine int
	Rendered        int // messages rendered since the last reset (tests)
}

func (v *transcriptView) reset(n, width int) {
	v.blocks = make([][]string, n)
	v.width = width
	v.Rendered = 0
	if v.TopMsg >= n {
		v.TopMsg, v.TopLine = max(0, n-1), 0
	}
}

// grow makes room for appended messages.
func (v *transcriptView) grow(n int) {
	for len(v.blocks) < n {
		v.blocks = append(v.blocks, nil)
	}
}

// Drop forgets one message's lines (it changed).
func (v *transcriptView) Drop(i int) {
	if i >= 0 && i < len(v.blocks) {
		v.blocks[i] = nil
	}
}

func (v *transcriptView) Top() { v.Follow, v.TopMsg, v.TopLine = false, 0, 0 }

// block returns message i's lines (with a blank separator line after).
func (c *Pane) block(i int) []string {
	c.Transcript.grow(len(c.Msgs))
	if b := c.Transcript.blocks[i]; b != nil {
		return b
	}
	if i == c.Partial && c.Msgs[i].Role == RoleAssistant {
		return c.streamBlock(i)
	}
	b := append(strings.Split(c.renderMsg(i), "\n"), "")
	c.Transcript.Rendered++
	c.Transcript.blocks[i] = b
	return b
}

// streamBlock renders the reply being streamed: its finished paragraphs
// through core/mdterm (cached until another paragraph completes), the
// paragraph still arriving rendered on its own. A frame during streaming
// so costs the new tail, not the whole reply.
func (c *Pane) streamBlock(i int) []string {
	text, w := c.Msgs[i].Text, max(20, c.w)
	cut := strings.LastIndex(text, "\n\n")
	stable, tail := "", text
	if cut >= 0 {
		stable, tail = text[:cut], text[cut+2:]
	}
	if c.streamMD.n != len(stable) || c.streamMD.width != w || c.streamMD.lines == nil {
		c.streamMD.n, c.streamMD.width = len(stable), w
		c.streamMD.lines = []string{c.m.Styles().Assistant.Render("Alice")}
		if stable != "" {
			c.streamMD.lines = append(c.streamMD.lines, strings.Split(c.markdown(stable, w), "\n")...)
			c.streamMD.lines = append(c.streamMD.lines, "")
		}
	}
	out := append([]string(nil), c.streamMD.lines...)
	if t := strings.TrimSpace(tail); t != "" {
		// Rendered like the rest (same indent, wrapping and lists), so the
		// reply does not shift when it completes; only this paragraph is
		// rendered per frame.
		out = append(out, strings.Split(c.markdown(t, w), "\n")...)
	}
	return append(out, "")
}

// anchorFromBottom turns "follow" into an explicit top anchor for height h.
func (c *Pane) anchorFromBottom(h int) {
	need := h
	i := len(c.Msgs) - 1
	for ; i >= 0; i-- {
		n := len(c.block(i))
		if n >= need {
			c.Transcript.TopMsg, c.Transcript.TopLine = i, n-need
			return
		}
		need -= n
	}
	c.Transcript.TopMsg, c.Transcript.TopLine = 0, 0
}

// ScrollBy moves the view by n lines (negative = towards older messages).
func (c *Pane) ScrollBy(n int) {
	if len(c.Msgs) == 0 {
		return
	}
	h := c.transcriptHeight()
	v := &c.Transcript
	if v.Follow {
		if n >= 0 {
			return
		}
		c.anchorFromBottom(h)
		v.Follow = false
	}
	v.TopLine += n
	for v.TopLine < 0 {
		if v.TopMsg == 0 {
			v.TopLine = 0
			break
		}
		v.TopMsg--
		v.TopLine += len(c.block(v.TopMsg))
	}
	for v.TopMsg < len(c.Msgs)-1 && v.TopLine >= len(c.block(v.TopMsg)) {
		v.TopLine -= len(c.block(v.TopMsg))
		v.TopMsg++
	}
	// Reaching the end pins the view to the newest line again.
	left := -v.TopLine
	for i := v.TopMsg; i < len(c.Msgs) && left <= h; i++ {
		left += len(c.block(i))
	}
	if left <= h {
		v.Follow = true
	}
}

// transcript returns exactly h lines of the conversation.
func (c *Pane) transcript(h int) string {
	if len(c.Msgs) == 0 {
		if c.m.Provider() == "not configured" {
			help := "Add one in Settings → AI provider (alt+8, or ctrl+p → \"Settings\"): Anthropic, OpenAI, " +
				"an OpenAI-compatible server such as Ollama or llama.cpp, or the claude / codex CLI; `t` tests it. " +
				"Or send any message to see the config file path and an example. Trading, inbox and workspaces work without it."
			return kit.FitHeight(c.m.Styles().Warn.Render("No AI provider is configured yet.")+"\n"+
				c.m.Styles().Muted.Render(ansi.Wrap(help, c.w, " ")), h)
		}
		return kit.FitHeight(c.m.Styles().Muted.Render("No messages yet. Try: \"what's in my portfolio?\" or \"buy 10 AAPL\"."), h)
	}
	if c.Transcript.width != c.w {
		c.Invalidate()
	}
	lines := make([]string, 0, h)
	if c.Transcript.Follow {
		// Newest at the bottom: collect blocks backwards, then emit in order.
		first, skip, got := len(c.Msgs), 0, 0
		for i := len(c.Msgs) - 1; i >= 0 && got < h; i-- {
			n := len(c.block(i))
			first, got = i, got+n
			if got > h {
				skip = got - h
			}
		}
		for i := first; i < len(c.Msgs); i++ {
			b := c.block(i)
			if i == first {
				b = b[skip:]
			}
			lines = append(lines, b...)
		}
	} else {
		skip := c.Transcript.TopLine
		for i := c.Transcript.TopMsg; i < len(c.Msgs) && len(lines) < h; i++ {
			b := c.block(i)
			if skip > 0 {
				b = b[min(skip, len(b)):]
				skip = 0
			}
			lines = append(lines, b[:min(len(b), h-len(lines))]...)
		}
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines[:h], "\n")
}

// renderMsg renders one message (uncached; see block).
func (c *Pane) renderMsg(i int) string {
	st, msg, w := c.m.Styles(), c.Msgs[i], max(20, c.w)
	switch msg.Role {
	case RoleUser:
		return st.User.Render("You") + "\n" + c.userText(msg.Text, w)
	case RoleAssistant:
		return st.Assistant.Render("Alice") + "\n" + c.markdown(msg.Text, w)
	case RoleTool:
		mark := st.Muted.Render("…")
		if msg.Output != "" {
			mark = st.Profit.Render("✓")
			if msg.IsError {
				mark = st.Loss.Render("✗")
			}
		}
		line := fmt.Sprintf("⚙ %s %s", msg.Tool, compactJSON(msg.Input, w-len(msg.Tool)-6))
		out := st.Tool.Render(ansi.Truncate(line, w-2, "…")) + " " + mark
		if c.expand {
			out += "\n" + st.Muted.Render(ansi.Wrap("  in:  "+msg.Input, w, " "))
			if msg.Output != "" {
				out += "\n" + st.Muted.Render(ansi.Wrap("  out: "+truncateRunes(msg.Output, 2000), w, " "))
			}
		}
		return out
	case RoleCompaction:
		head := st.Muted.Render("— conversation compacted —")
		if strings.TrimSpace(msg.Text) == "" {
			return head
		}
		if !c.summary {
			return head + st.Muted.Render("  ctrl+r shows the summary") + "\n" +
				st.Muted.Render(ansi.Truncate("Summary: "+strings.Join(strings.Fields(msg.Text), " "), w, "…"))
		}
		return head + st.Muted.Render("  ctrl+r hides the summary") + "\n" + c.markdown(msg.Text, w)
	case RoleImage:
		return imagePlaceholder(*st, msg.Text, w)
	}
	// System notes: errors are marked, plain help is not.
	if msg.IsError {
		return st.Error.Render("✗ Alice") + "\n" + ansi.Wrap(kit.FriendlyText(msg.Text), w, " ")
	}
	return st.Muted.Render("Alice · note") + "\n" + ansi.Wrap(kit.FriendlyText(msg.Text), w, " ")
}

// userText wraps what the user sent, collapsing very long messages (big
// pastes) to their first lines unless tool details are expanded.
func (c *Pane) userText(text string, w int) string {
	text = kit.ExpandTabs(text)
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if !c.expand && len(lines) > pasteMaxLines {
		more := len(lines) - 3
		text = strings.Join(lines[:3], "\n")
		return ansi.Wrap(text, w, " ") + "\n" + c.m.Styles().Muted.Render(fmt.Sprintf("▤ +%s (ctrl+o expands)", kit.Plural(more, "line")))
	}
	return ansi.Wrap(text, w, " ")
}

func (c *Pane) markdown(text string, w int) string {
	if c.md == nil {
		c.md = mdterm.New(mdterm.Options{Width: w, Light: !c.m.Styles().Dark})
	}
	return strings.Trim(c.md.Render(text), "\n")
}

// transcriptHeight is what is left after header, separator and input.
func (c *Pane) transcriptHeight() int {
	h := c.h - 2 - c.Input.Height()
	if len(c.Pasted) > 0 {
		h--
	}
	return max(1, h)
}

func (c *Pane) View() string {
	st := c.m.Styles()
	header := st.Accent.Render(c.headerName()) + st.Muted.Render(" · "+kit.OrDash(c.providerLabel()))
	if !c.writable() {
		header += st.Warn.Render(" · read-only")
	}
	if !c.Transcript.Follow && len(c.Msgs) > 0 {
		header += st.Accent.Render(fmt.Sprintf(" · message %d of %d · ctrl+end newest", c.Transcript.TopMsg+1, len(c.Msgs)))
	}
	sep := st.Muted.Render(strings.Repeat("─", max(0, c.w)))
	if c.Busy {
		sep = st.Accent.Render(kit.SpinnerFrames[c.frame%len(kit.SpinnerFrames)]+" Alice is working… ") + st.Muted.Render("(esc to stop)")
	}
	c.fitInput() // attachments come and go
	comp := c.comp.view(st, c.w, min(6, max(0, c.h/3), max(0, c.transcriptHeight()-1)))
	bodyH := max(1, c.transcriptHeight()-len(comp))
	var body string
	if c.browser.open {
		body = c.browser.view(st, c.m.Clock(), c.Session, c.w, bodyH)
	} else {
		body = c.transcript(bodyH)
	}
	parts := []string{header, body}
	parts = append(parts, comp...)
	if a := c.attachmentsView(); a != "" {
		parts = append(parts, a)
	}
	in := c.Input
	if c.browser.open {
		in.Blur() // only the browser's filter shows a cursor
	}
	parts = append(parts, sep, in.View())
	return kit.Stack(parts...)
}

// providerLabel is the status bar's provider, or the channel's own
// profile when it has one.
func (c *Pane) providerLabel() string {
	if ch, ok := c.channelOf(c.Session); ok && ch.Provider != "" {
		return ch.Provider
	} else if ok && ch.Profile != "" {
		return "profile " + ch.Profile
	}
	return c.m.Provider()
}

func compactJSON(s string, w int) string {
	s = strings.Join(strings.Fields(s), " ")
	if w < 8 {
		w = 8
	}
	return ansi.Truncate(s, w, "…")
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
