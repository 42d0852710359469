package inbox

import (
	"regexp"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/core/mdterm"
	"github.com/alice-trading/alice/tui/kit"
)

// InboxReadCore persists which inbox entries were seen, so the unread count
// survives a restart. Optional: without it read marks last one run.
type InboxReadCore interface {
	InboxSeen() (map[string]bool, error)
	SaveInboxSeen(ids []string) error
}

// inboxSeenMsg delivers the stored read marks.
type inboxSeenMsg struct {
	seen map[string]bool
	err  error
}

// inboxSavedMsg ends one save of the read marks.
type inboxSavedMsg struct{ err error }

func (p *Pane) loadSeen() tea.Cmd {
	rc, ok := p.core.(InboxReadCore)
	if !ok {
		return nil
	}
	return func() tea.Msg {
		s, err := rc.InboxSeen()
		return inboxSeenMsg{s, err}
	}
}

// markSeen records ids as read; the root saves them after the Update.
func (p *Pane) markSeen(ids ...string) {
	for _, id := range ids {
		if !p.seen[id] {
			p.seen[id] = true
			p.dirty = true
		}
	}
}

// SaveCmd writes the read marks when they changed and no save is running
// (one at a time, so an older snapshot never lands after a newer one).
func (p *Pane) SaveCmd() tea.Cmd {
	rc, ok := p.core.(InboxReadCore)
	if !ok || !p.dirty || p.saving || !p.seenLoaded {
		return nil
	}
	var ids []string
	for _, e := range p.Entries {
		if p.seen[e.ID] {
			ids = append(ids, e.ID)
		}
	}
	p.dirty, p.saving = false, true
	return func() tea.Msg { return inboxSavedMsg{rc.SaveInboxSeen(ids)} }
}

// onSeen merges stored marks (union: marks made before the load stay).
func (p *Pane) onSeen(msg inboxSeenMsg) tea.Cmd {
	p.seenLoaded = true
	if msg.err != nil {
		return kit.ErrCmd(msg.err)
	}
	for id := range msg.seen {
		p.seen[id] = true
	}
	return nil
}

// commentsView renders an entry's comments as markdown, cached per entry
// and width (comments never change once pushed).
func (p *Pane) commentsView(e InboxEntry, w int) string {
	if p.mdW != w || p.md == nil {
		p.md, p.mdW, p.mdCache = mdterm.New(mdterm.Options{Width: w, Light: !p.m.Styles().Dark}), w, map[string]string{}
	}
	if s, ok := p.mdCache[e.ID]; ok {
		return s
	}
	out := strings.Trim(p.md.Render(e.Comments), "\n")
	p.mdCache[e.ID] = out
	return out
}

var (
	mdBlock = regexp.MustCompile(`^\s*(#+|>|[-*+]|\d+\.)\s+`)
	mdLink  = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	// mdInline are emphasis and code spans, each a pair of marks around
	// text that neither starts nor ends with a space; a lone mark
	// ("!@#$%^&*()", "2 * 3") is text and stays.
	mdInline = []*regexp.Regexp{
		regexp.MustCompile("`+([^`]+)`+"),
		regexp.MustCompile(`\*\*(\S(?:[^*]*\S)?)\*\*`),
		regexp.MustCompile(`__(\S(?:[^_]*\S)?)__`),
		regexp.MustCompile(`~~(\S(?:[^~]*\S)?)~~`),
		regexp.MustCompile(`\*(\S(?:[^*]*\S)?)\*`),
	}
)

// plainSummary strips markdown marks for one-line list rows, leaving any
// character that is not part of a mark as written.
func plainSummary(s string) string {
	s = mdBlock.ReplaceAllString(s, "")
	s = mdLink.ReplaceAllString(s, "$1")
	for _, re := range mdInline {
		s = re.ReplaceAllString(s, "$1")
	}
	return strings.TrimSpace(s)
}
