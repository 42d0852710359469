package tui_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/alice-trading/alice/tui/workspaces"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// extraPane is what a helper adding a tab writes: a pane with actions.
type extraPane struct {
	w, h    int
	focused bool
	ran     int
}

func (p *extraPane) SetSize(w, h int)         { p.w, p.h = w, h }
func (p *extraPane) Focus()                   { p.focused = true }
func (p *extraPane) Blur()                    { p.focused = false }
func (p *extraPane) Update(tea.Msg) tea.Cmd   { return nil }
func (p *extraPane) View() string             { return "extra pane body" }
func (p *extraPane) Capturing() bool          { return false }
func (p *extraPane) Badge() string            { return "●" }
func (p *extraPane) ShortHelp() []key.Binding { return nil }
func (p *extraPane) Actions() []kit.Action {
	return []kit.Action{{ID: "extra.refresh", Title: "Refresh the extra thing", Group: "Extra", Key: "r",
		Run: func() tea.Cmd { p.ran++; return nil }}}
}

func TestAddedPaneGetsATabAKeyAndPaletteActions(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 120, 30)
	x := &extraPane{}
	idx := h.M.AddPane("Extra", x)
	h.Send(tea.WindowSizeMsg{Width: 120, Height: 30})
	require.Equal(t, [2]int{116, 25}, [2]int{x.w, x.h}, "sized to the inside of the frame")
	require.Contains(t, h.Screen(), fmt.Sprintf("%d Extra ●", idx+1))
	h.Send(tea.KeyPressMsg{Code: rune('1' + idx), Mod: tea.ModAlt})
	require.Equal(t, idx, h.M.Focus)
	require.True(t, x.focused)
	require.Contains(t, h.Screen(), "╭─ Extra ─")
	require.Contains(t, h.Screen(), "extra pane body")

	h.Send(tuitest.Ctrl('p'))
	h.TypeText("refr extra")
	require.Contains(t, h.Screen(), "Refresh the extra thing")
	h.Key("enter")
	require.Nil(t, h.M.Palette)
	require.Equal(t, 1, x.ran)
}

func TestPaletteFuzzyFindsAndRunsAnAction(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Send(tuitest.Ctrl('p'))
	require.NotNil(t, h.M.Palette)
	s := h.Screen()
	require.Contains(t, s, "Go to Portfolio")
	var ids []string
	for _, a := range h.M.Palette.All {
		ids = append(ids, a.ID)
	}
	require.Contains(t, ids, "workspaces.shell", "every pane's actions are listed, not only the focused one's")
	require.Equal(t, "chat.new", ids[0], "the focused pane's actions come first")
	h.TypeText("aprv")
	require.Equal(t, "portfolio.approve", h.M.Palette.All[h.M.Palette.Matches[0].Index].ID)
	h.Key("enter")
	require.Equal(t, tui.FocusPortfolio, h.M.Focus, "the action focuses its pane")
	require.NotNil(t, h.M.Dialog, "and opens the approval confirmation")
	require.Empty(t, h.F.Approved)

	// Aliases match, arrows move, esc closes without running anything.
	h.Key("esc")
	h.Now = h.Now.Add(time.Second)
	h.Key("esc")
	h.Send(tuitest.Ctrl('p'))
	h.TypeText("exit")
	require.Equal(t, "app.quit", h.M.Palette.All[h.M.Palette.Matches[0].Index].ID)
	h.Key("esc")
	require.Nil(t, h.M.Palette)
	require.Nil(t, h.M.QuitDlg)
}

func TestFooterShowsPaneKeysWithEllipsisAndAlwaysQuitAndHelp(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 120, 220} {
		h := tuitest.NewHarness(t, w, 24)
		for f := range h.M.Tabs {
			h.M.SetFocus(tui.Focus(f))
			lines := strings.Split(h.Screen(), "\n")
			foot := lines[len(lines)-2]
			require.LessOrEqual(t, ansi.StringWidth(foot), w)
			require.Contains(t, foot, "ctrl+c quit", "width %d pane %d", w, f)
			require.Contains(t, foot, "help")
			require.Contains(t, foot, "ctrl+p commands")
			if w == 80 {
				require.Contains(t, foot, "…", "hints that do not fit end in an ellipsis")
			}
		}
	}
}

func TestToastsExpireErrorsStayAndAreKeptInHistory(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 120, 30)
	h.Send(kit.FlashMsg("detached; the session keeps running"))
	require.Contains(t, h.Screen(), "detached; the session keeps running")
	id := h.M.Toasts.Live[0].ID
	h.Send(kit.FlashMsg("newer"))
	h.Send(kit.ToastExpiredMsg{ID: id}) // the old timer must not clear the newer toast
	require.Contains(t, h.Screen(), "newer")
	h.Send(kit.ToastExpiredMsg{ID: h.M.Toasts.Live[0].ID})
	require.NotContains(t, h.Screen(), "newer", "info toasts expire")

	// Errors do not stack: a newer one replaces the older, and dismissing
	// it never brings the older (already resolved) one back.
	h.Send(kit.ErrMsg{Err: errors.New("quote feed down")})
	h.Send(kit.ErrMsg{Err: errors.New("broker offline")})
	require.Contains(t, h.Screen(), "✗ broker offline")
	require.Contains(t, h.Screen(), "ctrl+x dismiss")
	h.Send(tuitest.Ctrl('x'))
	require.NotContains(t, h.Screen(), "broker offline")
	require.NotContains(t, h.Screen(), "quote feed down", "dismissing does not resurrect an older error")

	// Errors are not sticky: they expire on their own timer (so one can
	// go while an attached terminal takes every key); an older timer
	// never clears a newer error.
	h.Send(kit.ErrMsg{Err: errors.New("first")})
	first := h.M.Toasts.Seq
	h.Send(kit.ErrMsg{Err: errors.New("second")})
	h.Send(kit.ToastExpiredMsg{ID: first})
	require.Contains(t, h.Screen(), "✗ second")
	h.Send(kit.ToastExpiredMsg{ID: h.M.Toasts.Seq})
	require.NotContains(t, h.Screen(), "second", "errors expire")

	h.Send(tea.KeyPressMsg{Code: 'm', Mod: tea.ModAlt})
	require.NotNil(t, h.M.Help)
	s := h.Screen()
	require.Contains(t, s, "Messages")
	require.Contains(t, s, "✗ broker offline")
	require.Contains(t, s, "✗ quote feed down", "the history keeps every error")
	require.Contains(t, s, "detached; the session keeps running")
	h.TypeText("broker")
	require.NotContains(t, h.Screen(), "detached;", "the history filters")
}

func TestFriendlyErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   error
		want string
	}{
		{context.Canceled, "Stopped."},
		{fmt.Errorf("stopped: %w", context.Canceled), "Stopped."},
		{errors.New("stopped: context canceled"), "Stopped."},
		{context.DeadlineExceeded, "That took too long and was stopped; try again."},
		{errors.New("get quote: dial tcp 127.0.0.1:7497: connect: connection refused"), "get quote: could not connect to 127.0.0.1:7497 (is it running?)"},
		{errors.New("order rejected: insufficient cash"), "order rejected: insufficient cash"},
	} {
		require.Equal(t, tc.want, kit.FriendlyError(tc.in), tc.in.Error())
	}
}

func TestProgressLineShowsLongWorkUntilItEnds(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 120, 30)
	cmd := h.M.Work.Begin("compact", "compacting the session", h.Now)
	require.NotNil(t, cmd, "the first item starts the spinner")
	h.Now = h.Now.Add(3 * time.Second)
	require.Contains(t, h.Screen(), "compacting the session… 3s")
	require.Nil(t, h.M.Work.Begin("snap", "taking a snapshot", h.Now), "one spinner for all work")
	require.Contains(t, h.Screen(), "taking a snapshot… (+1 more)")
	h.M.Work.End("snap")
	h.M.Work.End("compact")
	require.NotContains(t, h.Screen(), "compacting")
	require.Nil(t, h.M.Work.Update(kit.WorkMsg{}), "the spinner stops when nothing runs")
}

func TestQuitAsksOnlyWhenSomethingRuns(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.M.SetFocus(tui.FocusPortfolio)
	h.Key("q")
	require.NotNil(t, h.M.QuitDlg, "a running shell needs confirmation")
	require.Contains(t, h.Screen(), "sh1 in workspace research-aapl")
	h.Key("n")
	require.Nil(t, h.M.QuitDlg)
	require.NoError(t, h.M.Ctx.Err(), "still running")

	// In the chat input q is a letter, not quit.
	h.M.SetFocus(tui.FocusChat)
	h.Key("q")
	require.Nil(t, h.M.QuitDlg)
	require.Equal(t, "q", h.M.Chat.Input.Value())

	h.M.Workspaces.List = []workspaces.WorkspaceInfo{{Tag: "w", Sessions: []string{"sh1 exited", "claude1 stopped", "sh2 restarting"}}}
	require.Equal(t, []string{"sh2 in workspace w"}, h.M.RunningWork(), "ended sessions do not count, respawning ones do")
	h.M.Workspaces.List = nil
	_, cmd := h.M.Update(tuitest.KeyMsg("ctrl+c"))
	require.NotNil(t, cmd)
	require.IsType(t, tea.QuitMsg{}, cmd(), "nothing runs: quit at once")
}

func TestCtrlCFromAnOverlayAndWorkspaceCreationProgress(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 120, 30)
	h.Send(tuitest.Ctrl('p'))
	h.Key("ctrl+c")
	require.Nil(t, h.M.Palette, "ctrl+c closes the palette")
	require.NotNil(t, h.M.QuitDlg, "and asks, since a shell runs")
	h.Key("esc")

	h.M.SetFocus(tui.FocusWorkspaces)
	h.Key("n")
	h.TypeText("notes")
	_, cmd := h.M.Update(tuitest.KeyMsg("enter"))
	require.Contains(t, h.Screen(), "creating the workspace…")
	h.Run(cmd)
	require.NotContains(t, h.Screen(), "creating the workspace…")
	require.Len(t, h.F.Workspace, 2)
}

func TestLongToastsAreCutAtAWord(t *testing.T) {
	t.Parallel()
	require.Equal(t, "detached; the session…", kit.CutWords("detached; the session keeps running in the background", 24))
	require.Equal(t, "short", kit.CutWords("short", 24))
	h := tuitest.NewHarness(t, 80, 24)
	h.Send(kit.FlashMsg("detached; the session keeps running in the background while you look at other panes and more"))
	lines := strings.Split(h.Screen(), "\n")
	status := lines[len(lines)-1]
	require.Contains(t, status, "…")
	require.NotContains(t, status, "pane…", "cut between words, not inside one")
}

func TestHelpListsEveryPaneAndFilters(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 120, 40)
	h.M.SetFocus(tui.FocusPortfolio)
	h.Key("?")
	all := strings.Join(h.M.Help.Lines(), "\n")
	for _, tb := range h.M.Tabs {
		require.Contains(t, all, tb.Name, "a section per pane")
	}
	require.Contains(t, all, "approve push")
	require.Contains(t, all, "edit in $EDITOR", "other panes' keys too")
	require.Contains(t, all, "go to pane N")
	h.TypeText("editor")
	got := ansi.Strip(strings.Join(h.M.Help.Lines(), "\n"))
	require.Contains(t, got, "ctrl+e")
	require.NotContains(t, got, "approve push", "the filter narrows the list")
	h.Key("esc")
	require.Nil(t, h.M.Help)
}

// At 60x20 the tab bar keeps one layout whichever pane is focused: an
// unfocused tab is drawn the same way (same cut title) on every pane.
func TestTabBarLayoutIsStableAcrossPanes(t *testing.T) {
	t.Parallel()
	for w := 56; w <= 110; w++ {
		tabBarStable(t, w)
	}
}

func tabBarStable(t *testing.T, width int) {
	h := tuitest.NewHarness(t, width, 20)
	labels := func() []string {
		bar := strings.Split(h.Screen(), "\n")[0]
		var out []string
		for n := 1; n <= 8; n++ {
			start := strings.Index(bar, fmt.Sprint(n)+" ")
			if start < 0 {
				start = strings.Index(bar, fmt.Sprint(n))
			}
			end := len(bar)
			if n < 8 {
				if e := strings.Index(bar[start+1:], fmt.Sprint(n+1)); e >= 0 {
					end = start + 1 + e
				}
			}
			l, _, _ := strings.Cut(strings.Join(strings.Fields(bar[start:end]), " "), " alice ")
			out = append(out, l)
		}
		return out
	}
	seen := map[int]string{}
	for k := 1; k <= 8; k++ {
		h.Alt(rune('0' + k))
		bar := strings.Split(h.Screen(), "\n")[0]
		require.NotContains(t, bar, "…", "no tab is cut")
		for j, l := range labels() {
			if j == k-1 {
				continue // the focused tab shows its full title
			}
			if prev, ok := seen[j]; ok {
				require.Equal(t, prev, l, "%d columns: tab %d when pane %d is focused", width, j+1, k)
			}
			seen[j] = l
		}
	}
}

// A long error is cut in the status bar at 80 columns, which then says
// where the whole text is; the message history shows all of it, wrapped.
func TestLongErrorsAreShownWholeInTheHistory(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 80, 24)
	long := "tradingPush: broker rejected the order: insufficient buying power for 100 AAPL at 187.20 (needs 18,720.00 USD, has 9,000.00 USD)\nhint: deposit cash or lower the quantity"
	h.Send(kit.ErrMsg{Err: errors.New(long)})
	lines := strings.Split(h.Screen(), "\n")
	status := lines[len(lines)-1]
	require.Contains(t, status, "✗ tradingPush: broker rejected")
	require.Contains(t, status, "alt+m more", "a cut error says where its whole text is")
	h.Send(tea.KeyPressMsg{Code: 'm', Mod: tea.ModAlt})
	s := h.Screen()
	for _, want := range []string{"insufficient", "buying power for 100 AAPL", "has 9,000.00 USD)", "hint: deposit cash or lower the quantity"} {
		require.Contains(t, s, want)
	}
}

// The palette ranks what says the word above letters scattered across
// words: the title's start, then a word start, then anywhere; fuzzy last.
func TestPaletteRanksWordMatchesAboveScatteredLetters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		q     string
		first []string // the first results, in order
	}{
		{"git", []string{"Git log/status of research-aapl"}},
		{"set", []string{"Go to Settings"}},
		{"quit", []string{"Quit alice"}},
		{"chan", []string{"New chat channel", "Switch channel or session (browser)", "Switch to a channel by name", "Rename this channel", "Archive this channel"}},
		{"aprv", []string{"Approve the pending commit (push)"}},
	} {
		h := tuitest.NewHarness(t, 100, 30)
		h.Send(tuitest.Ctrl('p'))
		h.TypeText(tc.q)
		var got []string
		for _, m := range h.M.Palette.Matches[:min(len(tc.first), len(h.M.Palette.Matches))] {
			got = append(got, h.M.Palette.All[m.Index].Title)
		}
		require.Equal(t, tc.first, got, tc.q)
	}
}

// A client attached to a background core (how `alice` runs) never quits
// on one key: quitting stops the core for every client, so it asks,
// naming the MCP ports, schedules, Telegram and running work, and offers
// d or ctrl+z to detach instead. --foreground asks only when something
// would stop: work, schedules, the heartbeat or Telegram.
func TestQuitConfirmsWhenItStopsTheCoreForAllClients(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		detachable bool
		setup      func(*tuitest.FakeCore)
		want       []string // nil: quits at once
	}{
		{"attached, nothing runs", true, nil,
			[]string{"This stops the core for all clients:", "MCP :3001, Ask MCP :3003", "d or ctrl+z detach instead"}},
		{"attached, schedules and Telegram", true, func(f *tuitest.FakeCore) { f.Schedules, f.Heartbeat, f.TelegramBot = 2, true, true },
			[]string{"MCP :3001, Ask MCP :3003", "2 scheduled jobs, the heartbeat, the Telegram bot"}},
		{"foreground, nothing runs", false, nil, nil},
		{"foreground, a schedule", false, func(f *tuitest.FakeCore) { f.Schedules = 1 },
			[]string{"This stops:", "1 scheduled job"}},
		{"foreground, Telegram", false, func(f *tuitest.FakeCore) { f.TelegramBot = true }, []string{"the Telegram bot"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var h *tuitest.Harness
			if tc.detachable {
				h = tuitest.NewDetachableHarness(t, 100, 30)
			} else {
				h = tuitest.NewHarness(t, 100, 30)
			}
			if tc.setup != nil {
				tc.setup(h.F)
			}
			h.M.Workspaces.List = nil // no running shell: only the core's own services
			h.Run(h.M.LoadStatus())
			h.M.SetFocus(tui.FocusPortfolio)
			_, cmd := h.M.Update(tuitest.KeyMsg("q"))
			if tc.want == nil {
				require.Nil(t, h.M.QuitDlg)
				require.NotNil(t, cmd)
				require.IsType(t, tea.QuitMsg{}, cmd(), "nothing would stop: quit at once")
				return
			}
			require.NotNil(t, h.M.QuitDlg, "one q never stops the core here")
			scr := h.Screen()
			for _, w := range tc.want {
				require.Contains(t, strings.Join(strings.Fields(scr), " "), w)
			}
			if !tc.detachable {
				require.NotContains(t, scr, "detach")
				return
			}
			_, cmd = h.M.Update(tuitest.KeyMsg("d"))
			require.Nil(t, h.M.QuitDlg)
			require.NotNil(t, cmd)
			require.IsType(t, tea.QuitMsg{}, cmd(), "d detaches")
			require.False(t, h.M.QuitRequested(), "detaching leaves the core running")
		})
	}
}
