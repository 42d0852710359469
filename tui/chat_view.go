package tui

import (
	"fmt"
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"
)

// Rendering for the chat pane. Messages render once per width (glamour is
// the expensive part) and only the ones that fit on screen are rendered.

// renderMsg renders one message to lines, cached by index.
func (c *chatPane) renderMsg(i int) string {
	if s, ok := c.cache[i]; ok {
		return s
	}
	st, msg, w := c.m.st, c.msgs[i], max(20, c.w-4)
	var out string
	switch msg.Role {
	case RoleUser:
		out = st.User.Render("You") + "\n" + ansi.Wrap(msg.Text, w, " ")
	case RoleAssistant:
		out = st.Assistant.Render("Alice") + "\n" + c.markdown(msg.Text, w)
	case RoleTool:
		mark := st.Muted.Render("…")
		if msg.Output != "" {
			mark = st.Profit.Render("✓")
			if msg.IsError {
				mark = st.Loss.Render("✗")
			}
		}
		line := fmt.Sprintf("⚙ %s %s", msg.Tool, compactJSON(msg.Input, w-len(msg.Tool)-6))
		out = st.Tool.Render(ansi.Truncate(line, w-2, "…")) + " " + mark
		if c.expand {
			out += "\n" + st.Muted.Render(ansi.Wrap("  in:  "+msg.Input, w, " "))
			if msg.Output != "" {
				out += "\n" + st.Muted.Render(ansi.Wrap("  out: "+truncateRunes(msg.Output, 2000), w, " "))
			}
		}
	case RoleSystem:
		style := st.Warn
		if msg.IsError {
			style = st.Error
		}
		out = style.Render("Alice ⚠") + "\n" + ansi.Wrap(msg.Text, w, " ")
	case RoleImage:
		out = imagePlaceholder(st, msg.Text, w)
	}
	if i != c.partial {
		c.cache[i] = out
	}
	return out
}

func (c *chatPane) markdown(text string, w int) string {
	if c.md == nil {
		style := "dark"
		if !c.m.st.Dark {
			style = "light"
		}
		r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(w))
		if err == nil {
			c.md = r
		}
	}
	if c.md != nil {
		if out, err := c.md.Render(text); err == nil {
			return strings.Trim(out, "\n")
		}
	}
	return ansi.Wrap(text, w, " ")
}

func (c *chatPane) View() string {
	st := c.m.st
	header := st.Title.Render("Chat") + st.Muted.Render(" · "+c.session+" · "+orDash(c.m.status.Provider))
	if !c.writable() {
		header += st.Warn.Render(" · read-only")
	}
	inputLine := c.input.View()
	if c.busy {
		inputLine = st.Accent.Render(spinnerFrames[c.frame%len(spinnerFrames)]+" Alice is working… ") + st.Muted.Render("(esc to stop)")
	}
	bodyH := max(1, c.h-3)
	var body string
	if c.picking {
		body = c.pickerView(bodyH)
	} else {
		body = c.transcript(bodyH)
	}
	sep := st.Muted.Render(strings.Repeat("─", max(0, c.w-2)))
	return stack(header, body, sep, inputLine)
}

// transcript renders only the messages needed to fill h lines above the
// scroll offset, newest at the bottom, so 10,000 messages stay cheap.
func (c *chatPane) transcript(h int) string {
	if len(c.msgs) == 0 {
		if c.m.status.Provider == "not configured" {
			return fitHeight(c.m.st.Warn.Render("No AI provider is configured yet.")+"\n"+
				c.m.st.Muted.Render("Add a profile to ai-provider.json in alice's config directory (anthropic, openai or an\n"+
					"OpenAI-compatible server such as Ollama, claude-cli, codex-cli) — or send any message\n"+
					"to see the exact file path and an example. Trading, inbox and workspaces work without it."), h)
		}
		return fitHeight(c.m.st.Muted.Render("No messages yet. Try: \"what's in my portfolio?\" or \"buy 10 AAPL\"."), h)
	}
	need := h + c.scroll
	var lines []string
	for i := len(c.msgs) - 1; i >= 0 && len(lines) < need; i-- {
		block := strings.Split(c.renderMsg(i), "\n")
		block = append(block, "")
		lines = append(block, lines...)
	}
	if c.scroll > len(lines)-h {
		c.scroll = max(0, len(lines)-h)
	}
	end := len(lines) - c.scroll
	start := max(0, end-h)
	return fitHeight(strings.Join(lines[start:end], "\n"), h)
}

func (c *chatPane) pickerView(h int) string {
	st := c.m.st
	lines := []string{st.Title.Render("Sessions") + st.Muted.Render("  enter open · esc close")}
	for i, s := range c.sessions {
		if i == c.pickIdx {
			lines = append(lines, st.Selected.Render("› "+s))
		} else {
			lines = append(lines, "  "+s)
		}
	}
	return fitHeight(strings.Join(lines, "\n"), h)
}

func stack(parts ...string) string { return strings.Join(parts, "\n") }

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
