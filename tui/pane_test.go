package tui_test

import (
	"errors"
	"fmt"
	"image/color"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/inbox"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/alice-trading/alice/tui/settings"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

func TestEveryBindingHasHelpText(t *testing.T) {
	t.Parallel()
	km := reflect.ValueOf(kit.DefaultKeyMap())
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
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 40)
	for f := tui.FocusChat; int(f) < len(h.M.Tabs); f++ {
		h.M.SetFocus(f)
		h.Key("f1")
		require.NotNil(t, h.M.Help)
		s := h.Screen()
		for _, b := range h.M.Tabs[f].P.ShortHelp()[:3] {
			require.Contains(t, s, b.Help().Desc, "pane %s", h.M.Tabs[f].Name)
		}
		require.Contains(t, s, "next pane")
		h.Key("esc")
		require.Nil(t, h.M.Help)
	}
}

func TestStatusBarShowsListenersProviderAndErrors(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 140, 30)
	s := h.Screen()
	require.Contains(t, s, "MCP http://127.0.0.1:3001/mcp")
	require.Contains(t, s, "Ask http://127.0.0.1:3003/mcp")
	require.Contains(t, s, "AI mock (openai m)")
	h.Send(kit.ErrMsg{Err: fmt.Errorf("broker offline\nsecond line")})
	s = h.Screen()
	require.Contains(t, s, "✗ broker offline")
	require.NotContains(t, s, "second line", "only the first line fits the bar")
}

func TestCoreEventsReloadPanesThroughTheBridge(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 160, 30)
	h.F.Mu.Lock()
	h.F.InboxEntries = append([]inbox.InboxEntry{{ID: "e3", Workspace: "btc", Comments: "new push", Time: tuitest.T0.Add(2 * time.Hour)}}, h.F.InboxEntries...)
	h.F.Mu.Unlock()
	// One event through the real bridge Cmd (its re-armed successor is
	// left waiting, as in the program).
	h.F.EventCh <- tui.InboxChangedEvent{}
	h.Run(h.M.WaitEvent())
	require.Len(t, h.M.Inbox.Entries, 3)
	require.Contains(t, h.Screen(), "Inbox (3)")

	h.Send(tui.CoreEventMsg{Ev: tui.TradingChangedEvent{ApprovalRequested: true}})
	require.Contains(t, h.Screen(), "waiting for your approval")

	h.Send(tui.CoreEventMsg{Ev: tui.NotificationEvent{Text: "AAPL hit 200", Source: "cron"}})
	require.Contains(t, h.Screen(), "AAPL hit 200")
}

func TestConfirmGraceHoldsWhileKeysKeepArriving(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("alt+3", "a")
	// A held key repeating every 100 ms for 3 s never gets through.
	for i := 0; i < 30; i++ {
		h.Now = h.Now.Add(100 * time.Millisecond)
		h.Key("y")
	}
	require.NotNil(t, h.M.Dialog)
	require.Empty(t, h.F.Approved)
	require.Contains(t, h.Screen(), "waiting for input to settle")
	h.Now = h.Now.Add(tui.GraceQuiet)
	require.Contains(t, h.Screen(), "y confirm")
	h.Key("esc")
	require.Nil(t, h.M.Dialog)
	require.Empty(t, h.F.Approved)
}

func TestGoldenOverlays(t *testing.T) {
	t.Parallel()
	t.Run("help_100x30", func(t *testing.T) {
		h := tuitest.NewHarness(t, 100, 30)
		h.M.SetFocus(tui.FocusPortfolio)
		h.Key("?")
		golden.RequireEqual(t, []byte(h.Screen()))
	})
	// Wide: two columns, the counter still counts keys.
	t.Run("help_200x50", func(t *testing.T) {
		h := tuitest.NewHarness(t, 200, 50)
		h.M.SetFocus(tui.FocusPortfolio)
		h.Key("?")
		golden.RequireEqual(t, []byte(h.Screen()))
	})
	t.Run("palette_100x30", func(t *testing.T) {
		h := tuitest.NewHarness(t, 100, 30)
		h.Send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
		golden.RequireEqual(t, []byte(h.Screen()))
	})
	t.Run("messages_80x24", func(t *testing.T) {
		h := tuitest.NewHarness(t, 80, 24)
		h.Send(kit.FlashMsg("session compacted"))
		h.Now = h.Now.Add(time.Minute)
		h.Send(kit.ErrMsg{Err: errors.New("broker offline: dial tcp 10.0.0.5:7497: connect: connection refused")})
		h.Send(tea.KeyPressMsg{Code: 'm', Mod: tea.ModAlt})
		golden.RequireEqual(t, []byte(h.Screen()))
	})
	t.Run("quit_80x24", func(t *testing.T) {
		h := tuitest.NewHarness(t, 80, 24)
		h.Key("ctrl+c")
		golden.RequireEqual(t, []byte(h.Screen()))
	})
	// the approval dialog carries the evidence: notional at the quote,
	// position and cash after, each guard's verdict with headroom, TIF,
	// and who staged it
	for _, size := range [][2]int{{100, 30}, {80, 24}, {160, 45}} {
		t.Run(fmt.Sprintf("approve_%dx%d", size[0], size[1]), func(t *testing.T) {
			h := tuitest.NewHarness(t, size[0], size[1])
			h.Key("alt+3", "a")
			h.Now = h.Now.Add(time.Second)
			screen := h.Screen()
			for _, want := range []string{"max-order-value: order value 18,720.00, limit 5,000.00 → would be", "max-position-size: position 0.0% → 18.7% of equity, limit 25% → ok", "time in force DAY", "staged by claude"} {
				require.Contains(t, strings.Join(strings.Fields(screen), " "), want)
			}
			golden.RequireEqual(t, []byte(screen))
		})
	}
	t.Run("attached_100x30", func(t *testing.T) {
		h := tuitest.NewHarness(t, 100, 30)
		h.Key("alt+4", "s")
		h.TypeText("echo hi")
		golden.RequireEqual(t, []byte(h.Screen()))
	})
	t.Run("light_chat_100x30", func(t *testing.T) {
		h := tuitest.NewHarness(t, 100, 30)
		h.Send(tea.BackgroundColorMsg{Color: color.White})
		require.False(t, h.M.St.Dark)
		h.F.Histories["tui/default"] = []chat.ChatMessage{{Role: chat.RoleAssistant, Text: "# Title\n\n- one\n- two"}}
		h.Run(h.M.Chat.Load())
		golden.RequireEqual(t, []byte(strings.TrimRight(h.Screen(), " \n")))
	})
}

// Help's counter counts keys, the same at every width (it counted rows:
// "1–11 of 137" at 80 columns, "1–37 of 69" at 200); its footer offers
// no "enter run" (enter only closes it) and alt+N names the panes there
// are.
func TestHelpCountsKeysAtEveryWidth(t *testing.T) {
	t.Parallel()
	total := regexp.MustCompile(`keys [0-9–, ]+ of (\d+)`)
	var totals []string
	for _, size := range [][2]int{{80, 24}, {120, 30}, {200, 50}} {
		h := tuitest.NewHarness(t, size[0], size[1])
		h.M.SetFocus(tui.FocusPortfolio)
		h.Key("?")
		s := h.Screen()
		m := total.FindStringSubmatch(s)
		require.NotNil(t, m, "%v: a counter in\n%s", size, s)
		totals = append(totals, m[1])
		require.NotContains(t, s, "enter run", "%v", size)
		require.Contains(t, s, "esc close", "%v", size)
		require.Contains(t, s, fmt.Sprintf("alt+1…%d", len(h.M.Tabs)), "%v", size)
		h.Key("enter")
		require.Nil(t, h.M.Help, "enter closes help")
	}
	require.Equal(t, totals[0], totals[1])
	require.Equal(t, totals[0], totals[2])
}

// Help lists the chat keys that work without a footer hint: tab takes a
// /command from the completion list, alt+enter inserts a newline.
func TestHelpListsChatTabAndAltEnter(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("f1")
	h.TypeText("complete")
	require.Regexp(t, `tab +complete /command`, h.Screen())
	h.Key("esc", "f1")
	h.TypeText("alt+enter")
	require.Regexp(t, `alt\+enter +newline`, h.Screen())
}

// Help lists every Settings key, whichever page is shown (it listed only
// the shown page's footer: space, A, g, R, T, x, n, o were missing).
func TestHelpListsEverySettingsKey(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("f1")
	var settingsPart string
	for _, l := range h.M.Help.Lines() {
		l = ansi.Strip(l)
		if l == "Settings" {
			settingsPart = "\n"
			continue
		}
		if settingsPart != "" {
			if !strings.HasPrefix(l, "  ") {
				break
			}
			settingsPart += l + "\n"
		}
	}
	require.NotEmpty(t, settingsPart)
	keys := reflect.ValueOf(settings.DefaultSettingsKeys())
	for i := 0; i < keys.NumField(); i++ {
		b := keys.Field(i).Interface().(key.Binding)
		require.Regexp(t, `\n  `+regexp.QuoteMeta(fmt.Sprintf("%-12s %s", b.Help().Key, b.Help().Desc))+`\n`, settingsPart, keys.Type().Field(i).Name)
	}
}
