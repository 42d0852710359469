package workspaces

import (
	"bytes"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// Input typed while a session is being opened (attach, zoom, a session
// starting) is the person typing into that session before it shows: it is
// held and sent to the session once it is attached or zoomed, in order.
// It used to reach the session list instead, where its letters ran list
// actions (`z` then "echo x" at typing speed opened the git view and lost
// the text). Holding lasts at most openHold: a session slow to open gives
// the keys back to the UI (quit, tab switching) and drops what it held.
type opening struct {
	on   bool
	gen  int // which opening an openExpiredMsg is about
	held heldInput
}

const (
	openHold    = 2 * time.Second
	maxHeldKeys = 4096
)

// heldInput is input (KeyPressMsg, PasteMsg) kept in order until what it
// is for is ready: a session opening, a send in flight (sendline.go). At
// most maxHeldKeys are kept.
type heldInput []tea.Msg

func (h *heldInput) add(msg tea.Msg) {
	if len(*h) < maxHeldKeys {
		*h = append(*h, msg)
	}
}

// openExpiredMsg ends an opening that took longer than openHold.
type openExpiredMsg struct{ gen int }

// beginOpening starts holding input; the command ends the hold after
// openHold.
func (p *Pane) beginOpening() tea.Cmd {
	gen := p.open.gen + 1
	p.open = opening{on: true, gen: gen}
	return tea.Tick(openHold, func(time.Time) tea.Msg { return openExpiredMsg{gen} })
}

// holdInput keeps msg while a session is opening and reports whether it did.
func (p *Pane) holdInput(msg tea.Msg) bool {
	if !p.open.on {
		return false
	}
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		p.open.held.add(msg)
		return true
	}
	return false
}

// endOpening sends the held input to t (nil: the opening failed, and the
// input is dropped). A held detach key ends the sending there and is
// reported: the person left the session before it showed. What was held
// after it was typed into the UI, detached: it is handed back to the UI
// (TakeReplay), to be handled in the same update, in order, before any
// key read later (ctrl+q Enter ctrl+q Enter typed at once used to lose
// the last Enter and every key after it, and end detached).
func (p *Pane) endOpening(t Terminal) (detached bool) {
	held := p.open.held
	p.open = opening{gen: p.open.gen}
	if t == nil {
		return false
	}
	for i, m := range held {
		switch m := m.(type) {
		case tea.KeyPressMsg:
			if isDetach(m, p.m.KeyMap().Workspaces.Detach) {
				p.replay = append(p.replay, held[i+1:]...)
				return true
			}
			t.SendKey(m)
		case tea.PasteMsg:
			t.Paste(m.Content)
		}
	}
	return false
}

// TakeReplay returns the input the pane handed back to the UI (see
// endOpening) and forgets it. The root updates with each, in order, before
// it returns from the update that produced them.
func (p *Pane) TakeReplay() []tea.Msg {
	r := p.replay
	p.replay = nil
	return r
}

// onOpenExpired gives the keys back to the UI when an opening outlasted
// openHold.
func (p *Pane) onOpenExpired(msg openExpiredMsg) tea.Cmd {
	if !p.open.on || msg.gen != p.open.gen {
		return nil
	}
	n := len(p.open.held)
	p.endOpening(nil)
	if n == 0 {
		return nil
	}
	return func() tea.Msg {
		return kit.FlashMsg("the session is still opening; " + kit.Plural(n, "key") + " typed meanwhile were not sent")
	}
}

// replayInput hands input the zoom read after its detach key (keys typed
// right after ctrl+q, in the same read) back to the UI (TakeReplay: in the
// same update, in order), as the terminal reader would have: it was
// dropped. An ESC followed by another ESC is an Escape, as the patched
// terminal reader hands it on (third_party/bubbletea/escreader.go); the
// decoder alone reads alt+esc. Keys and pastes are replayed; anything
// else read there (a mouse report) is dropped.
func (p *Pane) replayInput(b []byte) {
	var dec uv.EventDecoder
	for len(b) > 0 {
		n, ev := dec.Decode(b)
		if len(b) > 1 && b[0] == 0x1b && b[1] == 0x1b {
			n, ev = 1, uv.KeyPressEvent{Code: uv.KeyEscape}
		}
		if n <= 0 {
			break
		}
		b = b[n:]
		switch ev := ev.(type) {
		case uv.PasteStartEvent:
			// The paste's bytes as they are, up to its end marker.
			end, rest := len(b), len(b)
			if i := bytes.Index(b, []byte(ansi.BracketedPasteEnd)); i >= 0 {
				end, rest = i, i+len(ansi.BracketedPasteEnd)
			}
			p.replay = append(p.replay, tea.PasteMsg{Content: string(b[:end])})
			b = b[rest:]
		case uv.KeyPressEvent:
			p.replay = append(p.replay, tea.KeyPressMsg(ev))
		}
	}
}
