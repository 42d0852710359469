package chat_test

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/inbox"
	"github.com/alice-trading/alice/tui/internal/tuitest"
)

// benchModel is a 160x45 model with 10,000 chat messages (every other one
// markdown from Alice) and 1,000 inbox entries.
func benchModel(b *testing.B) *tui.Model {
	b.Helper()
	f := tuitest.NewFakeCore()
	dark := true
	m := tui.New(f, tui.Options{Dark: &dark, Now: func() time.Time { return tuitest.T0 }})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	for i := 0; i < 10000; i++ {
		m.Chat.Msgs = append(m.Chat.Msgs, chat.ChatMessage{Role: chat.ChatRole(i % 2), Text: fmt.Sprintf("message %d with **markdown** and some text to wrap across the pane width", i)})
	}
	m.Chat.Replaced()
	for i := 0; i < 1000; i++ {
		m.Inbox.Entries = append(m.Inbox.Entries, inbox.InboxEntry{ID: fmt.Sprint(i), Workspace: "ws", Comments: "entry", Time: tuitest.T0})
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
		_ = m.Render() // the first frame at a position renders what is visible
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if step != nil {
				step()
			}
			_ = m.Render()
		}
	}
	b.Run("chat-bottom", func(b *testing.B) {
		m.SetFocus(tui.FocusChat)
		m.Chat.Transcript.Follow = true
		frame(b, nil)
	})
	b.Run("chat-middle", func(b *testing.B) {
		m.Chat.Transcript.Follow, m.Chat.Transcript.TopMsg, m.Chat.Transcript.TopLine = false, 5000, 0
		frame(b, nil)
	})
	b.Run("chat-top", func(b *testing.B) {
		m.Chat.Transcript.Top()
		frame(b, nil)
	})
	b.Run("chat-paging-up", func(b *testing.B) {
		// Every frame scrolls half a page towards older messages, so new
		// messages keep being rendered (as when a person holds pgup).
		m.Chat.Invalidate()
		m.Chat.Transcript.Follow = true
		frame(b, func() {
			if !m.Chat.Transcript.Follow && m.Chat.Transcript.TopMsg == 0 {
				m.Chat.Invalidate()
				m.Chat.Transcript.Follow = true
			}
			m.Chat.ScrollBy(-20)
		})
	})
	b.Run("chat-streaming", func(b *testing.B) {
		m.Chat.Transcript.Follow = true
		last := len(m.Chat.Msgs) - 1
		m.Chat.Msgs[last].Text = ""
		m.Chat.Partial = last
		frame(b, func() {
			m.Chat.Msgs[last].Text += " more"
			if len(m.Chat.Msgs[last].Text) > 4000 {
				m.Chat.Msgs[last].Text = ""
			}
			m.Chat.Transcript.Drop(last)
		})
		m.Chat.Partial = -1
	})
	b.Run("chat-streaming-scrolled-to-middle", func(b *testing.B) {
		last := len(m.Chat.Msgs) - 1
		m.Chat.Partial = last
		m.Chat.Transcript.Follow, m.Chat.Transcript.TopMsg, m.Chat.Transcript.TopLine = false, 5000, 0
		frame(b, func() {
			m.Chat.Msgs[last].Text += " more"
			m.Chat.Transcript.Drop(last)
		})
		m.Chat.Partial = -1
	})
	b.Run("inbox", func(b *testing.B) {
		m.SetFocus(tui.FocusInbox)
		frame(b, nil)
	})
}
