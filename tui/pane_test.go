package tui

import (
	"errors"
	"fmt"
	"image/color"
	"reflect"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

func TestEveryBindingHasHelpText(t *testing.T) {
	km := reflect.ValueOf(DefaultKeyMap())
	for i := 0; i < km.NumField(); i++ {
		group := km.Field(i)
		for j := 0; j < group.NumField(); j++ {
			b := group.Field(j).Interface().(key.Binding)
			name := km.Type().Field(i).Name + "." + group.Type().Field(j).Name
			require.NotEmpty(t, b.Keys(), name)
			require.NotEmpty(t, b.Help().Key, name)
			require.NotEmpty(t, b.Help().Desc, name)
		}
	}
}

func TestHelpOverlayShowsFocusedPaneKeys(t *testing.T) {
	h := newHarness(t, 100, 40)
	for f := focusChat; int(f) < len(h.m.tabs); f++ {
		h.m.setFocus(f)
		h.key("f1")
		require.NotNil(t, h.m.help)
		s := h.screen()
		for _, b := range h.m.tabs[f].p.ShortHelp()[:3] {
			require.Contains(t, s, b.Help().Desc, "pane %s", h.m.tabs[f].name)
		}
		require.Contains(t, s, "next pane")
		h.key("esc")
		require.Nil(t, h.m.help)
	}
}

func TestStatusBarShowsListenersProviderAndErrors(t *testing.T) {
	h := newHarness(t, 140, 30)
	s := h.screen()
	require.Contains(t, s, "MCP http://127.0.0.1:3001/mcp")
	require.Contains(t, s, "Ask http://127.0.0.1:3003/mcp")
	require.Contains(t, s, "AI mock (openai m)")
	h.send(errMsg{fmt.Errorf("broker offline\nsecond line")})
	s = h.screen()
	require.Contains(t, s, "✗ broker offline")
	require.NotContains(t, s, "second line", "only the first line fits the bar")
}

func TestCoreEventsReloadPanesThroughTheBridge(t *testing.T) {
	h := newHarness(t, 160, 30)
	h.f.mu.Lock()
	h.f.inbox = append([]InboxEntry{{ID: "e3", Workspace: "btc", Comments: "new push", Time: t0.Add(2 * time.Hour)}}, h.f.inbox...)
	h.f.mu.Unlock()
	// One event through the real bridge Cmd (its re-armed successor is
	// left waiting, as in the program).
	h.f.events <- InboxChangedEvent{}
	h.run(h.m.waitEvent())
	require.Len(t, h.m.inbox.entries, 3)
	require.Contains(t, h.screen(), "Inbox (3)")

	h.send(coreEventMsg{TradingChangedEvent{ApprovalRequested: true}})
	require.Contains(t, h.screen(), "waiting for your approval")

	h.send(coreEventMsg{NotificationEvent{Text: "AAPL hit 200", Source: "cron"}})
	require.Contains(t, h.screen(), "AAPL hit 200")
}

func TestConfirmGraceHoldsWhileKeysKeepArriving(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("alt+3", "a")
	// A held key repeating every 100 ms for 3 s never gets through.
	for i := 0; i < 30; i++ {
		h.now = h.now.Add(100 * time.Millisecond)
		h.key("y")
	}
	require.NotNil(t, h.m.dialog)
	require.Empty(t, h.f.approved)
	require.Contains(t, h.screen(), "waiting for input to settle")
	h.now = h.now.Add(graceQuiet)
	require.Contains(t, h.screen(), "y confirm")
	h.key("esc")
	require.Nil(t, h.m.dialog)
	require.Empty(t, h.f.approved)
}

func TestGoldenOverlays(t *testing.T) {
	t.Run("help_100x30", func(t *testing.T) {
		h := newHarness(t, 100, 30)
		h.m.setFocus(focusPortfolio)
		h.key("?")
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("palette_100x30", func(t *testing.T) {
		h := newHarness(t, 100, 30)
		h.send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("messages_80x24", func(t *testing.T) {
		h := newHarness(t, 80, 24)
		h.send(flashMsg("session compacted"))
		h.now = h.now.Add(time.Minute)
		h.send(errMsg{errors.New("broker offline: dial tcp 10.0.0.5:7497: connect: connection refused")})
		h.send(tea.KeyPressMsg{Code: 'm', Mod: tea.ModAlt})
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("quit_80x24", func(t *testing.T) {
		h := newHarness(t, 80, 24)
		h.key("ctrl+c")
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("approve_100x30", func(t *testing.T) {
		h := newHarness(t, 100, 30)
		h.key("alt+3", "a")
		h.now = h.now.Add(time.Second)
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("attached_100x30", func(t *testing.T) {
		h := newHarness(t, 100, 30)
		h.key("alt+4", "s")
		h.typeText("echo hi")
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("light_chat_100x30", func(t *testing.T) {
		h := newHarness(t, 100, 30)
		h.send(tea.BackgroundColorMsg{Color: color.White})
		require.False(t, h.m.st.Dark)
		h.f.history["tui/default"] = []ChatMessage{{Role: RoleAssistant, Text: "# Title\n\n- one\n- two"}}
		h.run(h.m.chat.load())
		golden.RequireEqual(t, []byte(strings.TrimRight(h.screen(), " \n")))
	})
}
