package kit

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

// Feedback in the status bar: toasts and one progress line for long work
// (compaction, tool calls, snapshots, workspace creation). Only the newest
// toast of each kind is live: a new error replaces the older one (which
// stays in the message history, alt+m), dismissing clears every live
// error, and errors expire too (after errorTTL), so none is sticky. While a
// terminal is attached (it takes every key), the detach key dismisses an
// error that arrived since, and a click on the status bar dismisses any.

// infoTTL is how long an info toast stays up; errorTTL an error.
const (
	infoTTL  = 4 * time.Second
	errorTTL = 15 * time.Second
)

// historyLen is how many toasts the message history keeps.
const historyLen = 30

type toastKind int

const (
	ToastInfo toastKind = iota
	ToastError
)

type toast struct {
	ID   int
	Kind toastKind
	Text string
	At   time.Time
}

// ToastExpiredMsg ends one info toast. It carries the toast's id so an old
// timer never clears a newer message.
type ToastExpiredMsg struct{ ID int }

// Toasts is the live stack plus a bounded history.
type Toasts struct {
	Seq     int
	Live    []toast
	History []toast
}

// Push shows text; info toasts replace the previous info toast and expire.
func (t *Toasts) Push(kind toastKind, text string, now time.Time) tea.Cmd {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	t.Seq++
	n := toast{ID: t.Seq, Kind: kind, Text: text, At: now}
	t.History = append(t.History, n)
	if len(t.History) > historyLen {
		t.History = t.History[len(t.History)-historyLen:]
	}
	kept := t.Live[:0]
	for _, l := range t.Live {
		if l.Kind != kind {
			kept = append(kept, l)
		}
	}
	t.Live = append(kept, n)
	id, ttl := n.ID, infoTTL
	if kind == ToastError {
		ttl = errorTTL
	}
	return tea.Tick(ttl, func(time.Time) tea.Msg { return ToastExpiredMsg{id} })
}

// Expire ends a toast when its time is up (an old timer never clears a
// newer toast: it carries the id).
func (t *Toasts) Expire(id int) {
	for i, l := range t.Live {
		if l.ID == id {
			t.Live = append(t.Live[:i], t.Live[i+1:]...)
			return
		}
	}
}

// Withdraw drops the live info toasts that say text (the history keeps
// them).
func (t *Toasts) Withdraw(text string) {
	kept := t.Live[:0]
	for _, l := range t.Live {
		if l.Kind != ToastInfo || l.Text != text {
			kept = append(kept, l)
		}
	}
	t.Live = kept
}

// Current is the newest live toast.
func (t *Toasts) Current() (toast, bool) {
	if len(t.Live) == 0 {
		return toast{}, false
	}
	return t.Live[len(t.Live)-1], true
}

func (t *Toasts) HasError() bool {
	for _, l := range t.Live {
		if l.Kind == ToastError {
			return true
		}
	}
	return false
}

// ErrorSince reports a live error pushed after toast seq.
func (t *Toasts) ErrorSince(seq int) bool {
	for _, l := range t.Live {
		if l.Kind == ToastError && l.ID > seq {
			return true
		}
	}
	return false
}

// Dismiss removes the live error (older ones were already replaced; all
// stay in the history).
func (t *Toasts) Dismiss() {
	kept := t.Live[:0]
	for _, l := range t.Live {
		if l.Kind != ToastError {
			kept = append(kept, l)
		}
	}
	t.Live = kept
}

// View renders the toast in at most w cells, cutting long text at a word
// boundary with an ellipsis.
// An error that does not fit (or has more lines) names the more key,
// which shows its whole text (the message history).
func (n toast) View(s Styles, dismiss, more key.Binding, w int) string {
	if n.Kind == ToastError {
		hint := "  " + dismiss.Help().Key + " dismiss"
		first := FirstLine(n.Text)
		if first != n.Text || ansi.StringWidth(first) > w-3-len(hint) {
			hint += " · " + more.Help().Key + " more"
		}
		return s.Error.Render(" ✗ "+CutWords(first, w-3-ansi.StringWidth(hint))) + s.Muted.Render(hint)
	}
	return s.StatusBar.Render(" " + CutWords(FirstLine(n.Text), w-1))
}

// CutWords shortens s to w cells at a word boundary, ending in "…".
func CutWords(s string, w int) string {
	if ansi.StringWidth(s) <= w || w < 8 {
		return s
	}
	cut := ansi.Truncate(s, w-1, "")
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// FriendlyError turns a core error into words for people: no Go wrapping
// jargon for the common cases, the first line otherwise.
func FriendlyError(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "Stopped."
	case errors.Is(err, context.DeadlineExceeded):
		return "That took too long and was stopped; try again."
	}
	return FriendlyText(err.Error())
}

// FriendlyText rewrites raw Go error strings that reach the UI as text
// (stream errors arrive as strings).
func FriendlyText(s string) string {
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

// Progress tracks long work shown as one spinner line.
type Progress struct {
	items   []workItem
	frame   int
	ticking bool
}

type workItem struct {
	id, label string
	since     time.Time
}

// WorkMsg advances the spinner.
type WorkMsg struct{}

// Begin shows label until end(id); it returns the spinner tick if needed.
func (p *Progress) Begin(id, label string, now time.Time) tea.Cmd {
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

func (p *Progress) End(id string) {
	for i, it := range p.items {
		if it.id == id {
			p.items = append(p.items[:i], p.items[i+1:]...)
			return
		}
	}
}

// EndPrefix ends every item whose id starts with prefix.
func (p *Progress) EndPrefix(prefix string) {
	kept := p.items[:0]
	for _, it := range p.items {
		if !strings.HasPrefix(it.id, prefix) {
			kept = append(kept, it)
		}
	}
	p.items = kept
}

func workTick() tea.Cmd {
	return tea.Tick(120*time.Millisecond, func(time.Time) tea.Msg { return WorkMsg{} })
}

func (p *Progress) Update(WorkMsg) tea.Cmd {
	if len(p.items) == 0 {
		p.ticking = false
		return nil
	}
	p.frame++
	return workTick()
}

func (p *Progress) View(s Styles, now time.Time) string {
	if len(p.items) == 0 {
		return ""
	}
	it := p.items[len(p.items)-1]
	text := SpinnerFrames[p.frame%len(SpinnerFrames)] + " " + it.label + "…"
	if d := now.Sub(it.since); d >= time.Second {
		text += fmt.Sprintf(" %ds", int(d.Seconds()))
	}
	if len(p.items) > 1 {
		text += fmt.Sprintf(" (+%d more)", len(p.items)-1)
	}
	return s.Accent.Render(" " + text)
}

var SpinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
