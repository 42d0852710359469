package chat

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/alice-trading/alice/tui/kit"
)

// Slash commands complete as you type (as crush does): while the input is
// a single line starting with "/", the commands (and /channel's
// subcommands and channel names) that start with what was typed are listed
// above the input; tab (or enter on a partial name) completes the selected
// one, ↑/↓ move, esc hides the list.

// slashCommand is one completable command.
type slashCommand struct {
	name, args, help string
}

// slashCommands are the chat's commands; /help lists them and they
// complete, so a command added to Pane.command belongs here too.
var slashCommands = []slashCommand{
	{"/channel", "[new <name> | rename <name> | archive | <name>]", "switch, create, rename or archive a chat channel"},
	{"/new", "<name>", "create a chat channel and switch to it"},
	{"/sessions", "", "browse every session (ctrl+s)"},
	{"/session", "<id>", "open a session by id (e.g. telegram/42, read-only)"},
	{"/title", "<title>", "name this session (empty: back to its first message)"},
	{"/compact", "", "summarise this session now (older messages stay scrollable)"},
	{"/clear", "", "clear the transcript view (the session keeps everything)"},
	{"/help", "", "commands and keys"},
}

// completion is the list shown for the current input.
type completion struct {
	items []completionItem
	idx   int
	hide  bool // esc hid it until the input changes
	last  string
}

type completionItem struct {
	insert string // what the input becomes
	label  string
	help   string
}

// update recomputes the list for input; channels are the chat channels'
// labels for /channel.
func (c *completion) update(input string, channels []string) {
	if input != c.last {
		c.hide = false
		c.idx = 0
	}
	c.last = input
	c.items = nil
	if !strings.HasPrefix(input, "/") || strings.Contains(input, "\n") {
		return
	}
	word, rest, hasArgs := strings.Cut(input, " ")
	if !hasArgs {
		for _, sc := range slashCommands {
			if strings.HasPrefix(sc.name, word) && sc.name != word {
				c.items = append(c.items, completionItem{insert: sc.name + " ", label: sc.name + " " + sc.args, help: sc.help})
			} else if sc.name == word {
				c.items = append(c.items, completionItem{insert: sc.name + " ", label: sc.name + " " + sc.args, help: sc.help})
			}
		}
		return
	}
	if word != "/channel" {
		return
	}
	// /channel <sub or name>: subcommands and channel names.
	if strings.Contains(rest, " ") {
		return
	}
	lower := strings.ToLower(rest)
	for _, sub := range []struct{ name, help string }{{"new", "create a channel and open it"}, {"rename", "rename this channel"}, {"archive", "archive this channel (its session is kept)"}} {
		if strings.HasPrefix(sub.name, lower) && sub.name != lower {
			c.items = append(c.items, completionItem{insert: "/channel " + sub.name + " ", label: "/channel " + sub.name, help: sub.help})
		}
	}
	for _, ch := range channels {
		if strings.HasPrefix(strings.ToLower(ch), lower) && !strings.EqualFold(ch, rest) {
			c.items = append(c.items, completionItem{insert: "/channel " + ch, label: "/channel " + ch, help: "switch to this channel"})
		}
	}
}

// visible reports whether the list is shown.
func (c *completion) visible() bool { return !c.hide && len(c.items) > 0 }

func (c *completion) move(d int) {
	if n := len(c.items); n > 0 {
		c.idx = (c.idx + d + n) % n
	}
}

// view renders at most max rows of the list.
func (c *completion) view(st *kit.Styles, w, maxRows int) []string {
	if !c.visible() || maxRows <= 0 {
		return nil
	}
	start := 0
	if c.idx >= maxRows {
		start = c.idx - maxRows + 1
	}
	var out []string
	for i := start; i < len(c.items) && i < start+maxRows; i++ {
		it := c.items[i]
		labelW := min(44, max(12, w/2))
		row := padRight(ansi.Truncate(it.label, labelW, "…"), labelW) + "  " + it.help
		row = padRight(ansi.Truncate(" "+row, w, "…"), w)
		if i == c.idx {
			out = append(out, st.Selected.Render(row))
		} else {
			out = append(out, st.Muted.Render(row))
		}
	}
	return out
}

// slashHelp is /help's list of commands.
func slashHelp() string {
	var b strings.Builder
	b.WriteString("Commands:")
	for _, sc := range slashCommands {
		b.WriteString("\n  " + sc.name)
		if sc.args != "" {
			b.WriteString(" " + sc.args)
		}
		b.WriteString(" — " + sc.help)
	}
	return b.String()
}
