package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Feedback in the status bar: toasts (info expires, errors stay until
// dismissed and are kept in a short history) and one progress line for
// long work (compaction, tool calls, snapshots, workspace creation).

// infoTTL is how long an info toast stays up.
const infoTTL = 4 * time.Second

// historyLen is how many toasts the message history keeps.
const historyLen = 30

type toastKind int

const (
	toastInfo toastKind = iota
	toastError
)

type toast struct {
	id   int
	kind toastKind
	text string
	at   time.Time
}

// toastExpiredMsg ends one info toast. It carries the toast's id so an old
// timer never clears a newer message.
type toastExpiredMsg struct{ id int }

// toasts is the live stack plus a bounded history.
type toasts struct {
	seq     int
	live    []toast
	history []toast
}

// push shows text; info toasts replace the previous info toast and expire.
func (t *toasts) push(kind toastKind, text string, now time.Time) tea.Cmd {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	t.seq++
	n := toast{id: t.seq, kind: kind, text: text, at: now}
	t.history = append(t.history, n)
	if len(t.history) > historyLen {
		t.history = t.history[len(t.history)-historyLen:]
	}
	if kind == toastInfo {
		kept := t.live[:0]
		for _, l := range t.live {
			if l.kind != toastInfo {
				kept = append(kept, l)
			}
		}
		t.live = append(kept, n)
		id := n.id
		return tea.Tick(infoTTL, func(time.Time) tea.Msg { return toastExpiredMsg{id} })
	}
	t.live = append(t.live, n)
	return nil
}

// expire ends an info toast; errors only go when dismissed.
func (t *toasts) expire(id int) {
	for i, l := range t.live {
		if l.id == id && l.kind == toastInfo {
			t.live = append(t.live[:i], t.live[i+1:]...)
			return
		}
	}
}

// current is the newest live toast.
func (t *toasts) current() (toast, bool) {
	if len(t.live) == 0 {
		return toast{}, false
	}
	return t.live[len(t.live)-1], true
}

func (t *toasts) hasError() bool {
	for _, l := range t.live {
		if l.kind == toastError {
			return true
		}
	}
	return false
}

// dismiss removes the newest error.
func (t *toasts) dismiss() {
	for i := len(t.live) - 1; i >= 0; i-- {
		if t.live[i].kind == toastError {
			t.live = append(t.live[:i], t.live[i+1:]...)
			return
		}
	}
}

// view renders the toast in at most w cells, cutting long text at a word
// boundary with an ellipsis.
func (n toast) view(s Styles, dismiss key.Binding, w int) string {
	if n.kind == toastError {
		hint := "  " + dismiss.Help().Key + " dismiss"
		return s.Error.Render(" ✗ "+cutWords(firstLine(n.text), w-3-len(hint))) + s.Muted.Render(hint)
	}
	return s.StatusBar.Render(" " + cutWords(firstLine(n.text), w-1))
}

// cutWords shortens s to w cells at a word boundary, ending in "…".
func cutWords(s string, w int) string {
	if ansi.StringWidth(s) <= w || w < 8 {
		return s
	}
	cut := ansi.Truncate(s, w-1, "")
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// friendlyError turns a core error into words for people: no Go wrapping
// jargon for the common cases, the first line otherwise.
func friendlyError(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "Stopped."
	case errors.Is(err, context.DeadlineExceeded):
		return "That took too long and was stopped; try again."
	}
	return friendlyText(err.Error())
}

// friendlyText rewrites raw Go error strings that reach the UI as text
// (stream errors arrive as strings).
func friendlyText(s string) string {
	low := strings.ToLower(s)
	switch {
	case strings.HasSuffix(low, "context canceled"):
		return "Stopped."
	case strings.HasSuffix(low, "context deadline exceeded"):
		return "That took too long and was stopped; try again."
	case strings.Contains(low, "connection refused"):
		// Keep what the caller was doing ("get quote: "), drop the dialer.
		what := ""
		if i := strings.Index(s, "dial tcp "); i > 0 {
			what = strings.TrimRight(s[:i], ": ") + ": "
		}
		return what + "could not connect to " + lastPart(s) + " (is it running?)"
	}
	return s
}

func lastPart(s string) string {
	if i := strings.Index(s, "dial tcp "); i >= 0 {
		rest := s[i+len("dial tcp "):]
		if j := strings.IndexByte(rest, ':'); j >= 0 {
			if k := strings.IndexByte(rest[j+1:], ':'); k >= 0 {
				return rest[:j+1+k]
			}
		}
		return rest
	}
	return "connection refused"
}

// progress tracks long work shown as one spinner line.
type progress struct {
	items   []workItem
	frame   int
	ticking bool
}

type workItem struct {
	id, label string
	since     time.Time
}

// workMsg advances the spinner.
type workMsg struct{}

// begin shows label until end(id); it returns the spinner tick if needed.
func (p *progress) begin(id, label string, now time.Time) tea.Cmd {
	for i, it := range p.items {
		if it.id == id {
			p.items[i].label = label
			return nil
		}
	}
	p.items = append(p.items, workItem{id, label, now})
	if p.ticking {
		return nil
	}
	p.ticking = true
	return workTick()
}

func (p *progress) end(id string) {
	for i, it := range p.items {
		if it.id == id {
			p.items = append(p.items[:i], p.items[i+1:]...)
			return
		}
	}
}

// endPrefix ends every item whose id starts with prefix.
func (p *progress) endPrefix(prefix string) {
	kept := p.items[:0]
	for _, it := range p.items {
		if !strings.HasPrefix(it.id, prefix) {
			kept = append(kept, it)
		}
	}
	p.items = kept
}

func workTick() tea.Cmd {
	return tea.Tick(120*time.Millisecond, func(time.Time) tea.Msg { return workMsg{} })
}

func (p *progress) update(workMsg) tea.Cmd {
	if len(p.items) == 0 {
		p.ticking = false
		return nil
	}
	p.frame++
	return workTick()
}

func (p *progress) view(s Styles, now time.Time) string {
	if len(p.items) == 0 {
		return ""
	}
	it := p.items[len(p.items)-1]
	text := spinnerFrames[p.frame%len(spinnerFrames)] + " " + it.label + "…"
	if d := now.Sub(it.since); d >= time.Second {
		text += fmt.Sprintf(" %ds", int(d.Seconds()))
	}
	if len(p.items) > 1 {
		text += fmt.Sprintf(" (+%d more)", len(p.items)-1)
	}
	return s.Accent.Render(" " + text)
}

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
