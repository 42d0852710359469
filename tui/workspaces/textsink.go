package workspaces

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// textSink takes text typed into the attached session straight from the
// program's input reader (tea.TextSink, the vendored Bubble Tea's
// passthrough): a read that is only typed text (printable characters,
// Enter, Tab, Backspace) skips the two
// goroutine hand-offs and the Update a key takes, and is written to the
// session's pty from the goroutine that read it. The reader uses it only
// once every earlier key has been through Update, so keys keep their
// order; the detach key is never text (ctrlOnly).
//
// It is called from the input goroutine: it holds only what is safe
// there (the session, which serialises its writes, and the channel that
// tells the pane's watch a key was typed).
type textSink struct {
	term  Terminal
	typed chan<- struct{}
}

// TakeText sends b to the session and tells the watch, as SendKey does.
func (s *textSink) TakeText(b []byte) bool {
	if !s.term.SendText(b) {
		return false
	}
	signalTyped(s.typed)
	return true
}

// TextSink is where typed text goes without a message while a session is
// attached and the detach key is not a printable one (nil otherwise):
// every other key the attached pane gets is forwarded unchanged, text
// included.
func (p *Pane) TextSink() tea.TextSink {
	if !p.Attached() || p.zoomed || !ctrlOnly(p.m.KeyMap().Workspaces.Detach) {
		return nil
	}
	if p.sink == nil || p.sink.term != p.term {
		p.sink = &textSink{term: p.term, typed: p.typed}
	}
	return p.sink
}

// ctrlOnly reports whether every key of b has a modifier that typed text
// never carries (text reads are never such a key).
func ctrlOnly(b key.Binding) bool {
	for _, k := range b.Keys() {
		mod, _, ok := strings.Cut(k, "+")
		if !ok || !slices.Contains([]string{"ctrl", "alt", "super", "hyper", "meta"}, mod) {
			return false
		}
	}
	return true
}
