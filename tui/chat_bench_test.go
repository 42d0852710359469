package tui

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// benchModel is a 160x45 model with 10,000 chat messages (every other one
// markdown from Alice) and 1,000 inbox entries.
func benchModel(b *testing.B) *Model {
	b.Helper()
	f := newFakeCore()
	dark := true
	m := New(f, Options{Dark: &dark, Now: func() time.Time { return t0 }})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	for i := 0; i < 10000; i++ {
		m.chat.msgs = append(m.chat.msgs, ChatMessage{Role: ChatRole(i % 2), Text: fmt.Sprintf("message %d with **markdown** and some text to wrap across the pane width", i)})
	}
	m.chat.replaced()
	for i := 0; i < 1000; i++ {
		m.inbox.entries = append(m.inbox.entries, InboxEntry{ID: fmt.Sprint(i), Workspace: "ws", Comments: "entry", Time: t0})
	}
	return m
}

// BenchmarkRender measures one full frame (tabs, frame, pane, footer,
// status) at the bottom, middle and top of 10,000 messages, while paging
// through them, while a reply streams, and for the inbox.
func BenchmarkRender(b *testing.B) {
	m := benchModel(b)
	frame := func(b *testing.B, step func()) {
		b.Helper()
		_ = m.render() // the first frame at a position renders what is visible
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if step != nil {
				step()
			}
			_ = m.render()
		}
	}
	b.Run("chat-bottom", func(b *testing.B) {
		m.setFocus(focusChat)
		m.chat.view.follow = true
		frame(b, nil)
	})
	b.Run("chat-middle", func(b *testing.B) {
		m.chat.view.follow, m.chat.view.topMsg, m.chat.view.topLine = false, 5000, 0
		frame(b, nil)
	})
	b.Run("chat-top", func(b *testing.B) {
		m.chat.view.top()
		frame(b, nil)
	})
	b.Run("chat-paging-up", func(b *testing.B) {
		// Every frame scrolls half a page towards older messages, so new
		// messages keep being rendered (as when a person holds pgup).
		m.chat.invalidate()
		m.chat.view.follow = true
		frame(b, func() {
			if !m.chat.view.follow && m.chat.view.topMsg == 0 {
				m.chat.invalidate()
				m.chat.view.follow = true
			}
			m.chat.scrollBy(-20)
		})
	})
	b.Run("chat-streaming", func(b *testing.B) {
		m.chat.view.follow = true
		last := len(m.chat.msgs) - 1
		m.chat.msgs[last].Text = ""
		m.chat.partial = last
		frame(b, func() {
			m.chat.msgs[last].Text += " more"
			if len(m.chat.msgs[last].Text) > 4000 {
				m.chat.msgs[last].Text = ""
			}
			m.chat.view.drop(last)
		})
		m.chat.partial = -1
	})
	b.Run("chat-streaming-scrolled-to-middle", func(b *testing.B) {
		last := len(m.chat.msgs) - 1
		m.chat.partial = last
		m.chat.view.follow, m.chat.view.topMsg, m.chat.view.topLine = false, 5000, 0
		frame(b, func() {
			m.chat.msgs[last].Text += " more"
			m.chat.view.drop(last)
		})
		m.chat.partial = -1
	})
	b.Run("inbox", func(b *testing.B) {
		m.setFocus(focusInbox)
		frame(b, nil)
	})
}
