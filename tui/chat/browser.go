package chat

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	"github.com/charmbracelet/x/ansi"

	"github.com/alice-trading/alice/tui/kit"
)

// The session browser (ctrl+s, /sessions, the palette): every session,
// most recently active first, with its channel, title, message count, last
// activity and a preview; typing filters (titles, channel names and the
// text of every message); enter opens; ctrl+r renames the session's title,
// ctrl+d deletes it after a confirmation, ctrl+n creates a channel, ctrl+a
// archives a channel. IO runs in Cmds; the rows come back as messages.

// SessionRow is one browser row.
type SessionRow struct {
	ID           string // session id
	Title        string
	TitleSet     bool
	ChannelID    string // chat channel id ("" for other sessions)
	Channel      string // its label
	Archived     bool
	LastActivity time.Time
	Messages     int
	Preview      string
	PreviewRole  string
	Match        string // the message that matched the filter
}

type browserMode int

const (
	browseList browserMode = iota
	browseRename
	browseNewChannel
	browseConfirmDelete
)

type browser struct {
	open    bool
	mode    browserMode
	filter  textinput.Model
	edit    textinput.Model
	rows    []SessionRow
	idx     int
	query   string // the query the rows answer
	loading bool
	err     string
}

// browseRowsMsg answers a browse request for query.
type browseRowsMsg struct {
	query string
	rows  []SessionRow
	err   error
}

func newBrowser() browser {
	f := textinput.New()
	f.Prompt = "filter › "
	f.Placeholder = "type to search titles, channels and messages"
	e := textinput.New()
	e.Prompt = "› "
	return browser{filter: f, edit: e}
}

// selected is the row under the cursor.
func (b *browser) selected() (SessionRow, bool) {
	if b.idx < 0 || b.idx >= len(b.rows) {
		return SessionRow{}, false
	}
	return b.rows[b.idx], true
}

// editView renders the rename / new-channel input w columns wide.
func (b *browser) editView(w int) string {
	e := b.edit
	e.SetWidth(max(10, w-ansi.StringWidth(e.Prompt)-1))
	return e.View()
}

func sessionKey(r SessionRow) string { return r.ID }

// setRows replaces the rows, keeping the cursor on the same session.
func (b *browser) setRows(rows []SessionRow) {
	k := kit.KeyAt(b.rows, sessionKey, b.idx)
	b.rows = rows
	b.idx = kit.Reselect(rows, sessionKey, k, 0) // gone (a new search): its best match
}

// ago is a short relative time: "now", "5m", "3h", "2d", else the date.
func ago(now, t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 7*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return t.Local().Format("2 Jan")
}

func msgsLabel(n int) string {
	if n == 1 {
		return "1 msg"
	}
	return fmt.Sprintf("%d msgs", n)
}

// view renders the browser in w×h.
func (b *browser) view(st *kit.Styles, now time.Time, current string, w, h int) string {
	head := st.Title.Render("Sessions") + st.Muted.Render("  enter open · ctrl+r rename · ctrl+d delete · ctrl+n new channel · ctrl+a archive · esc close")
	lines := []string{ansi.Truncate(head, w, "…")}
	switch b.mode {
	case browseRename:
		lines = append(lines, st.Accent.Render("New title ")+b.editView(w-10), st.Muted.Render("enter saves · an empty title goes back to the first message · esc cancels"))
	case browseNewChannel:
		lines = append(lines, st.Accent.Render("New channel ")+b.editView(w-12), st.Muted.Render("enter creates and opens it · esc cancels"))
	case browseConfirmDelete:
		if r, ok := b.selected(); ok {
			lines = append(lines, st.Warn.Render(fmt.Sprintf("Delete %q (%s, %s)? y deletes, any other key keeps it.", r.Title, r.ID, msgsLabel(r.Messages))))
		}
	default:
		// Without a width the placeholder shows only its first letter.
		f := b.filter
		f.SetWidth(max(10, w-ansi.StringWidth(f.Prompt)-1))
		lines = append(lines, f.View())
	}
	if b.err != "" {
		lines = append(lines, st.Error.Render(ansi.Truncate(b.err, w, "…")))
	}
	if len(b.rows) == 0 {
		msg := "no sessions yet"
		if b.query != "" {
			msg = "nothing matches " + fmt.Sprintf("%q", b.query)
		}
		lines = append(lines, st.Muted.Render("  "+msg))
		return kit.FitHeight(strings.Join(lines, "\n"), h)
	}
	// Two lines per row; keep the cursor's row visible.
	fit := max(1, (h-len(lines))/2)
	start := 0
	if b.idx >= fit {
		start = b.idx - fit + 1
	}
	for i := start; i < len(b.rows) && i < start+fit; i++ {
		r := b.rows[i]
		name := r.ID
		if r.Channel != "" {
			name = "# " + r.Channel
			if r.Archived {
				name += " (archived)"
			}
		}
		mark := "  "
		if r.ID == current {
			mark = "● "
		}
		right := msgsLabel(r.Messages) + " · " + ago(now, r.LastActivity)
		nameW := min(24, max(8, w/4))
		title := r.Title
		left := mark + padRight(ansi.Truncate(name, nameW, "…"), nameW) + "  "
		titleW := max(1, w-ansi.StringWidth(left)-ansi.StringWidth(right)-2)
		row := left + padRight(ansi.Truncate(title, titleW, "…"), titleW) + "  " + right
		sub := previewText(r.Preview)
		if r.Match != "" {
			sub = "⌕ " + r.Match
		} else if r.PreviewRole != "" {
			who := "Alice: "
			if r.PreviewRole == "user" {
				who = "you: "
			}
			sub = who + sub
		}
		sub = "    " + ansi.Truncate(sub, max(1, w-4), "…")
		if i == b.idx {
			lines = append(lines, st.Selected.Render(padRight(ansi.Truncate(row, w, "…"), w)), st.Muted.Render(sub))
		} else {
			lines = append(lines, ansi.Truncate(row, w, "…"), st.Muted.Render(sub))
		}
	}
	return kit.FitHeight(strings.Join(lines, "\n"), h)
}

func padRight(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// browserHelp is the footer help while the browser is open.
var browserHelp = []key.Binding{
	key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
	key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "select")),
	key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "rename")),
	key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "delete")),
	key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "new channel")),
	key.NewBinding(key.WithKeys("ctrl+a"), key.WithHelp("ctrl+a", "archive channel")),
	key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
}

// previewText is a message as one plain line: markdown emphasis and code
// marks and line-leading heading, quote and list markers dropped,
// whitespace collapsed.
func previewText(s string) string {
	s = strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
	var words []string
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		for len(f) > 0 && strings.Trim(f[0], "#>-*") == "" {
			f = f[1:]
		}
		words = append(words, f...)
	}
	return strings.Join(words, " ")
}
