package live

import (
	"context"
	"errors"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/alice-trading/alice/core/agent"
	"github.com/alice-trading/alice/core/channel"
	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/kit"
)

// Sessions lists sessions the chat can open, TUI ones first.
func (c *Core) Sessions() ([]string, error) {
	list, err := c.chat.Sessions()
	if err != nil {
		return nil, err
	}
	ids := []string{chat.DefaultSession}
	for _, s := range list {
		if s.ID != chat.DefaultSession {
			ids = append(ids, s.ID)
		}
	}
	sort.SliceStable(ids[1:], func(i, j int) bool {
		ti, tj := strings.HasPrefix(ids[1+i], "tui/"), strings.HasPrefix(ids[1+j], "tui/")
		return ti && !tj
	})
	return ids, nil
}

// History converts a session's newest rows to chat rows, across
// compactions (older messages stay scrollable above the summary row).
func (c *Core) History(session string, limit int) ([]chat.ChatMessage, error) {
	items, err := c.chat.Transcript(session, limit)
	if err != nil {
		return nil, err
	}
	out := make([]chat.ChatMessage, 0, len(items))
	for _, it := range items {
		ts, _ := time.Parse(time.RFC3339Nano, it.Timestamp)
		m := chat.ChatMessage{Text: it.Text, Tool: it.Tool, Input: it.Input, Output: it.Output, IsError: it.IsError, Time: ts}
		switch it.Kind {
		case "user":
			m.Role = chat.RoleUser
		case "assistant":
			m.Role = chat.RoleAssistant
		case "tool":
			m.Role = chat.RoleTool
		case "image":
			m.Role, m.Text = chat.RoleImage, c.mediaPath(it.Text)
		case "compaction":
			m.Role, m.Text = chat.RoleCompaction, it.Summary
		default:
			m.Role = chat.RoleSystem
		}
		out = append(out, m)
	}
	return out, nil
}

// Send starts an agent turn and converts its events. The turn follows
// ctx (esc, quitting) except when ctx ends because the client detached
// (kit.ErrDetached): the core then finishes the turn, whose reply lands in
// the session for the next client, and the events are dropped.
func (c *Core) Send(ctx context.Context, session, text string) (<-chan chat.ChatEvent, error) {
	c.a.Touch("tui", session)
	turnCtx, stopTurn := context.WithCancel(c.a.RunContext())
	s, err := c.chat.AskWithSession(turnCtx, text, session, agent.Options{Channel: "tui", ChannelID: channel.FromSession(session)})
	if err != nil {
		stopTurn()
		return nil, err
	}
	turnDone := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			if !errors.Is(context.Cause(ctx), kit.ErrDetached) {
				stopTurn()
			}
		case <-turnDone:
		}
	}()
	out := make(chan chat.ChatEvent, 64)
	detached := false
	send := func(ce chat.ChatEvent) {
		if detached {
			return
		}
		select {
		case out <- ce:
		case <-ctx.Done():
			if detached = errors.Is(context.Cause(ctx), kit.ErrDetached); !detached {
				out <- ce // esc: the pane reads on to the end of the turn
			}
		}
	}
	go func() {
		defer close(out)
		defer stopTurn()
		defer close(turnDone)
		for ev := range s.Events() {
			var ce chat.ChatEvent
			switch ev.Kind {
			case agent.TextDelta:
				ce = chat.ChatEvent{Kind: chat.ChatDelta, Text: ev.Text}
			case agent.ToolUse:
				ce = chat.ChatEvent{Kind: chat.ChatToolUse, Tool: ev.Tool, ToolID: ev.ToolID, Input: string(ev.Input)}
			case agent.ToolResult:
				ce = chat.ChatEvent{Kind: chat.ChatToolResult, Tool: ev.Tool, ToolID: ev.ToolID, Output: ev.Content, IsError: ev.IsError}
				for _, ref := range agent.SavedImages(ev.Content) {
					send(ce)
					ce = chat.ChatEvent{Kind: chat.ChatImage, Text: c.mediaPath(ref)}
				}
			case agent.Done:
				ce = chat.ChatEvent{Kind: chat.ChatDone, Text: ev.Text}
			case agent.Error:
				ce = chat.ChatEvent{Kind: chat.ChatError, Text: ev.Text}
			}
			send(ce)
		}
	}()
	return out, nil
}

// Compact summarises the session now.
func (c *Core) Compact(ctx context.Context, session string) error {
	return c.chat.Compact(ctx, session)
}

// mediaPath turns a session's image reference ("media/<name>", relative
// to the data directory) into a file path the terminal can open; URLs and
// absolute paths pass through.
func (c *Core) mediaPath(ref string) string {
	clean := filepath.Clean(filepath.FromSlash(ref))
	if ref == "" || strings.Contains(ref, "://") || filepath.IsAbs(ref) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return ref // shown as written, never resolved outside the data dir
	}
	return filepath.Join(c.a.Paths().Data, clean)
}
