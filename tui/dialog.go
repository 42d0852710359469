package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// GraceQuiet is how long input must be quiet before a confirmation accepts
// keys: keystrokes already in flight when the dialog opens (typing in the
// chat, a held key) must never approve an order by accident.
const GraceQuiet = 500 * time.Millisecond

// confirmDialog asks y/n before something irreversible (a push).
type confirmDialog struct {
	m       *Model
	title   string
	Body    string
	onYes   tea.Cmd
	lastKey time.Time
	ignored int
	// settleAt is the lastKey a redraw is already scheduled for: the hint
	// turns from "waiting" to "y confirm" when the grace period ends, not
	// at the next unrelated message.
	settleAt time.Time
	// valid, when set, reports whether the decision is still open.
	valid func() bool
	// scroll is the first body row shown when the dialog is taller than
	// the screen.
	scroll int
}

// dialogResultMsg carries the confirmed action back through Update.
type dialogResultMsg struct{ then tea.Cmd }

// dialogSettledMsg redraws a confirmation once its grace period is over.
type dialogSettledMsg struct{}

// settleCmd schedules one redraw for when the grace period that began at
// the last key ends; nil when it has ended or one is already scheduled.
func (d *confirmDialog) settleCmd(now time.Time) tea.Cmd {
	left := GraceQuiet - now.Sub(d.lastKey)
	if left <= 0 || d.settleAt.Equal(d.lastKey) {
		return nil
	}
	d.settleAt = d.lastKey
	return tea.Tick(left, func(time.Time) tea.Msg { return dialogSettledMsg{} })
}

func newConfirmDialog(m *Model, title, body string, onYes tea.Cmd, now time.Time) *confirmDialog {
	return &confirmDialog{m: m, title: title, Body: body, onYes: onYes, lastKey: now}
}

// handle answers y/n/esc once the grace period has passed; earlier keys
// only extend it.
func (d *confirmDialog) handle(msg tea.KeyPressMsg, now time.Time) tea.Cmd {
	quiet := now.Sub(d.lastKey) >= GraceQuiet
	d.lastKey = now
	// Scrolling works at once (and, like any key, restarts the grace
	// period: a y right after it is ignored).
	switch {
	case key.Matches(msg, d.m.keys.Dialog.Up):
		d.scroll = max(0, d.scroll-scrollStep(msg))
		return nil
	case key.Matches(msg, d.m.keys.Dialog.Down):
		d.scroll += scrollStep(msg)
		return nil
	}
	if !quiet {
		d.ignored++
		return nil
	}
	switch {
	case key.Matches(msg, d.m.keys.Dialog.Yes):
		d.m.Dialog = nil
		then := d.onYes
		return func() tea.Msg { return dialogResultMsg{then} }
	case key.Matches(msg, d.m.keys.Dialog.No):
		d.m.Dialog = nil
		return func() tea.Msg { return kit.FlashMsg("cancelled") }
	}
	return nil
}

// scrollStep is how far a scroll key moves: a page for pgup/pgdown.
func scrollStep(msg tea.KeyPressMsg) int {
	if s := msg.String(); s == "pgup" || s == "pgdown" {
		return 5
	}
	return 1
}

func (d *confirmDialog) view() string {
	s := d.m.St
	hint := s.Muted.Render("y confirm · n/esc cancel")
	if d.m.now().Sub(d.lastKey) < GraceQuiet {
		hint = s.Muted.Render("(waiting for input to settle…)")
	}
	// A body taller than the screen shows the rows that fit, keeping the
	// title, the answer keys and the frame on screen, and scrolls.
	st := s.Dialog
	inner := max(10, d.m.width-st.GetHorizontalFrameSize())
	body := strings.Split(wrapHanging(d.Body, inner), "\n")
	_, bodyH := d.m.BodySize()
	room := bodyH + 2 - st.GetVerticalFrameSize() - 4 // title, two blanks, hint
	if len(body) > room && room >= 2 {
		room-- // the scroll line
		d.scroll = min(max(0, d.scroll), len(body)-room)
		more := fmt.Sprintf("rows %d–%d of %d · ↑/↓ scroll", d.scroll+1, d.scroll+room, len(body))
		body = body[d.scroll : d.scroll+room]
		hint = s.Muted.Render(more) + "\n" + hint
	}
	return d.m.dialogBox(s.Warn.Render(d.title) + "\n\n" + strings.Join(body, "\n") + "\n\n" + hint)
}
