package tuitest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/chat"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// Harness drives the model synchronously and deterministically: every
// command runs to completion and its message is fed back into Update,
// except timer commands (ticks, spinners, blink), which never run, and
// waits blocked on a source only the test feeds (core events, a chat
// stream, a terminal's Changed), which stay pending until the test feeds
// them. No wall-clock deadline decides what a test sees.
type Harness struct {
	t       testing.TB
	M       *tui.Model
	F       *FakeCore
	Now     time.Time
	pending []*worker
}

// NewHarness runs the model over a fresh FakeCore at w×h, loaded.
func NewHarness(t testing.TB, w, h int) *Harness {
	return NewHarnessCore(t, w, h, func(f *FakeCore) tui.Core { return f })
}

// NewHarnessCore runs the model over wrap(fake), for optional interfaces.
func NewHarnessCore(t testing.TB, w, h int, wrap func(*FakeCore) tui.Core) *Harness {
	f := NewFakeCore()
	hs := NewHarnessOver(t, wrap(f), f, w, h)
	hs.Run(hs.M.LoadAll())
	return hs
}

// NewHarnessOver builds the model over core (a fake embedding f) at w×h
// with the harness's clock and f's event channel; the caller runs the
// loads its test needs.
func NewHarnessOver(t testing.TB, core tui.Core, f *FakeCore, w, h int) *Harness {
	return newHarness(t, core, f, w, h, tui.Options{})
}

// NewDetachableHarness is NewHarness for a client attached to a core
// that outlives it (tui.Options.Detachable, as `alice` runs the UI).
func NewDetachableHarness(t testing.TB, w, h int) *Harness {
	f := NewFakeCore()
	hs := newHarness(t, f, f, w, h, tui.Options{Detachable: true})
	hs.Run(hs.M.LoadAll())
	return hs
}

func newHarness(t testing.TB, core tui.Core, f *FakeCore, w, h int, opts tui.Options) *Harness {
	dark := true
	hs := &Harness{t: t, F: f, Now: T0}
	opts.Version, opts.Dark, opts.Now = "test", &dark, func() time.Time { return hs.Now }
	m := tui.New(core, opts)
	hs.M = m
	t.Cleanup(m.Close) // ends watch/bridge Cmds the harness left blocked
	hs.Send(tea.WindowSizeMsg{Width: w, Height: h})
	m.Events = f.EventCh
	return hs
}

// Toast is the text of the newest live toast.
func (h *Harness) Toast() string {
	t, _ := h.M.Toasts.Current()
	return t.Text
}

// Send feeds msg to the model and runs the commands it returns.
func (h *Harness) Send(msg tea.Msg) {
	h.t.Helper()
	h.flush()
	_, cmd := h.M.Update(msg)
	h.Run(cmd)
}

// Run runs cmd and every command its messages lead to, then delivers
// what earlier blocked waits produced meanwhile, until nothing moves.
func (h *Harness) Run(cmd tea.Cmd) {
	h.t.Helper()
	h.flush()
	h.runDepth(cmd, 0)
	h.flush()
}

// runDepth runs cmd to completion on its own goroutine. Timer commands
// are never run; a command that blocks on its source (see settle) is
// kept pending and its message delivered by a later flush.
func (h *Harness) runDepth(cmd tea.Cmd, depth int) {
	h.t.Helper()
	if cmd == nil || depth > 50 {
		return
	}
	name := cmdName(cmd)
	if isTimer(name) {
		return // a tick, spinner, toast expiry or blink: not part of a step
	}
	w := start(cmd, name)
	msg, ok, hung := w.settle()
	if hung {
		h.t.Fatalf("tuitest: command %s neither returned nor blocked on a channel within %s", w.label(), hangLimit)
	}
	if !ok {
		h.pending = append(h.pending, w)
		return
	}
	h.deliver(msg, depth)
}

// flush delivers the messages of pending waits whose source the test fed
// (an event sent on EventCh, a terminal nudge), in the order they were
// started, until every remaining wait is blocked.
func (h *Harness) flush() {
	h.t.Helper()
	for moved := true; moved; {
		moved = false
		waits := h.pending
		h.pending = nil
		var msgs []tea.Msg
		for _, w := range waits {
			msg, ok, hung := w.settle()
			switch {
			case hung:
				h.t.Fatalf("tuitest: wait %s neither returned nor blocked within %s", w.label(), hangLimit)
			case ok:
				msgs, moved = append(msgs, msg), true
			default:
				h.pending = append(h.pending, w)
			}
		}
		for _, msg := range msgs {
			h.deliver(msg, 0)
		}
	}
}

func (h *Harness) deliver(msg tea.Msg, depth int) {
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			h.runDepth(c, depth+1)
		}
	case tui.TickMsg, chat.ChatSpinMsg:
	default:
		_, next := h.M.Update(msg)
		h.runDepth(next, depth+1)
	}
}

// Key presses each named key ("enter", "alt+3", "a").
func (h *Harness) Key(keys ...string) {
	for _, k := range keys {
		h.Send(KeyMsg(k))
	}
}

// TypeText types s one rune at a time.
func (h *Harness) TypeText(s string) {
	for _, r := range s {
		h.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// KeyMsg is the key press for a key name.
func KeyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdn":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "ctrl+q":
		return tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "alt+3":
		return tea.KeyPressMsg{Code: '3', Mod: tea.ModAlt}
	case "alt+4":
		return tea.KeyPressMsg{Code: '4', Mod: tea.ModAlt}
	case "ctrl+s":
		return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	case "f1":
		return tea.KeyPressMsg{Code: tea.KeyF1}
	case "space":
		return Space()
	case "delete":
		return tea.KeyPressMsg{Code: tea.KeyDelete}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

func (h *Harness) Screen() string { return ansi.Strip(h.M.Render()) }

func (h *Harness) Alt(r rune) { h.Send(tea.KeyPressMsg{Code: r, Mod: tea.ModAlt}) }

func Space() tea.KeyPressMsg { return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "} }

func CtrlS() tea.KeyPressMsg { return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl} }

// Confirm answers an open dialog after its grace period.
func (h *Harness) Confirm() {
	h.t.Helper()
	require.NotNil(h.t, h.M.Dialog, "a confirmation is open")
	h.Now = h.Now.Add(time.Second)
	h.Key("y")
}

func Ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

func WindowSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
