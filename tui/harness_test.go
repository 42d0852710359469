package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// harness drives the model synchronously: commands run with a short
// deadline (ticks and spinners that sleep are dropped) and their messages
// are fed back into Update.
type harness struct {
	t   *testing.T
	m   *Model
	f   *fakeCore
	now time.Time
}

func newHarness(t *testing.T, w, h int) *harness {
	return newHarnessCore(t, w, h, func(f *fakeCore) Core { return f })
}

// newHarnessCore runs the model over wrap(fake), for optional interfaces.
func newHarnessCore(t *testing.T, w, h int, wrap func(*fakeCore) Core) *harness {
	f := newFakeCore()
	hs := newHarnessOver(t, wrap(f), f, w, h)
	hs.run(hs.m.loadAll())
	return hs
}

// newHarnessOver builds the model over core (a fake embedding f) at w×h
// with the harness's clock and f's event channel; the caller runs the
// loads its test needs.
func newHarnessOver(t *testing.T, core Core, f *fakeCore, w, h int) *harness {
	dark := true
	hs := &harness{t: t, f: f, now: t0}
	m := New(core, Options{Version: "test", Dark: &dark, Now: func() time.Time { return hs.now }})
	hs.m = m
	t.Cleanup(m.Close) // ends watch/bridge Cmds the harness left blocked
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	m.events = f.events
	return hs
}

// toast is the text of the newest live toast.
func (h *harness) toast() string {
	t, _ := h.m.toasts.current()
	return t.text
}

func (h *harness) send(msg tea.Msg) {
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

func (h *harness) run(cmd tea.Cmd) {
	h.runDepth(cmd, 0)
}

func (h *harness) runDepth(cmd tea.Cmd, depth int) {
	if cmd == nil || depth > 50 {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(100 * time.Millisecond):
		return // a tick or a blocking wait: not part of this step
	}
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			h.runDepth(c, depth+1)
		}
	case tickMsg, chatSpinMsg:
	default:
		_, next := h.m.Update(msg)
		h.runDepth(next, depth+1)
	}
}

func (h *harness) key(keys ...string) {
	for _, k := range keys {
		h.send(keyMsg(k))
	}
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func keyMsg(k string) tea.KeyPressMsg {
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
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

func (h *harness) screen() string { return ansi.Strip(h.m.render()) }

func (h *harness) alt(r rune) { h.send(tea.KeyPressMsg{Code: r, Mod: tea.ModAlt}) }

func space() tea.KeyPressMsg { return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "} }

func ctrlS() tea.KeyPressMsg { return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl} }

// confirm answers an open dialog after its grace period.
func (h *harness) confirm() {
	h.t.Helper()
	require.NotNil(h.t, h.m.dialog, "a confirmation is open")
	h.now = h.now.Add(time.Second)
	h.key("y")
}

func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

func windowSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
