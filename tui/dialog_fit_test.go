package tui_test

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
)

// A confirmation wider than the terminal is wrapped inside its frame: at
// 80 columns every word of an order's evidence is still on screen (it
// used to collapse into one line of ═ running off the edge).
func TestDialogWiderThanTheTerminalWraps(t *testing.T) {
	t.Parallel()
	long := "staged by claude, session workspace/research-desk-long-name, via mcp client claude-code; time in force GTC"
	evidence := "est. 18,720.00 USD at the current quote (bid 187.18 / ask 187.20) · position AAPL 0 → 100; cash 100,000.00 → 81,280.00"
	for _, w := range []int{60, 80} {
		h := tuitest.NewHarness(t, w, 24)
		h.M.OpenDialog("Approve and execute these orders?", long+"\n"+evidence, nil)
		screen := h.Screen()
		// The dialog's rows, frames and spaces removed, hold the text whole.
		var rows []string
		for _, line := range strings.Split(screen, "\n") {
			if i := strings.Index(line, "║"); i >= 0 {
				rows = append(rows, strings.Trim(line[i:], "║│ "))
			}
		}
		squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
		flat := squash(strings.Join(rows, " "))
		require.Contains(t, flat, squash(long), "width %d", w)
		require.Contains(t, flat, squash(evidence), "width %d", w)
		for _, line := range strings.Split(screen, "\n") {
			require.LessOrEqual(t, len([]rune(line)), w, "no line wider than the terminal")
		}
		require.Contains(t, screen, "y confirm", "the answer keys stay visible (footer)")
	}
}

// An approval decided elsewhere (another client, Telegram) closes this
// client's open confirmation as soon as its portfolio reloads, instead of
// leaving a dialog whose y can only fail.
func TestApprovalDecidedElsewhereClosesTheDialog(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("alt+3", "a")
	require.Contains(t, h.Screen(), "Approve and execute these orders?")
	h.F.Mu.Lock()
	h.F.PendingCommits = nil // approved in another client
	h.F.Mu.Unlock()
	h.Send(tui.CoreEventMsg{Ev: tui.TradingChangedEvent{}})
	screen := h.Screen()
	require.NotContains(t, screen, "Approve and execute these orders?")
	require.Contains(t, screen, "decided elsewhere")
}

// An approval's evidence wrapped at 60 columns keeps the dialog's right
// frame on every row (a "/" breakpoint let ansi.Wrap leave a row two
// cells too wide, so the frame ran off the screen; found in tmux at
// 60x20) and wrapped rows keep the indent of the line they continue.
func TestDialogWrapKeepsTheFrameAndTheIndent(t *testing.T) {
	t.Parallel()
	body := "• placeOrder BUY 10 AAPL (MKT) DAY\n" +
		"  staged by mock (openai mock), session tui/default, via tui; time in force DAY\n" +
		"  est. 2,060.10 USD at the current quote (bid 205.9895 / ask 206.0095)\n" +
		"  max-position-size: position 0.0% → 2.1% of equity, limit 25% → ok"
	for _, w := range []int{60, 80} {
		h := tuitest.NewHarness(t, w, 30)
		h.M.OpenDialog("Approve and execute these orders?", body, nil)
		var rows []string
		for _, line := range strings.Split(h.Screen(), "\n") {
			if i := strings.Index(line, "║"); i >= 0 {
				rows = append(rows, strings.TrimRight(line[i:], " │"))
			}
		}
		require.NotEmpty(t, rows)
		for _, r := range rows {
			require.True(t, strings.HasSuffix(r, "║"), "width %d: the row %q has its right frame", w, r)
		}
		for _, r := range rows {
			if strings.Contains(r, "206.0095)") || strings.Contains(r, "force DAY") {
				require.Regexp(t, `^║    \S`, r, "width %d: a wrapped row keeps the indent of its line", w)
			}
		}
	}
}

// A confirmation taller than the screen (a commit of several orders with
// their evidence at 80x24, one at 60x20) keeps its frame and answer keys
// on screen and scrolls its body with ↑/↓; scrolling never answers it.
func TestTallDialogScrolls(t *testing.T) {
	t.Parallel()
	var body []string
	for i := 1; i <= 30; i++ {
		body = append(body, fmt.Sprintf("evidence line %d", i))
	}
	h := tuitest.NewHarness(t, 60, 20)
	yes := false
	h.M.OpenDialog("Approve and execute these orders?", strings.Join(body, "\n"), func() tea.Msg { yes = true; return nil })
	s := h.Screen()
	require.Contains(t, s, "Approve and execute these orders?")
	require.Contains(t, s, "evidence line 1")
	require.NotContains(t, s, "evidence line 30")
	require.Contains(t, s, "↑/↓ scroll")
	require.Contains(t, s, "╚", "the bottom of the frame is on screen")
	for range 30 {
		h.Key("down")
	}
	s = h.Screen()
	require.Contains(t, s, "evidence line 30")
	require.NotContains(t, s, "evidence line 1\n")
	require.Contains(t, s, "╚")
	require.False(t, yes, "scrolling does not confirm")
	require.NotNil(t, h.M.Dialog, "the dialog stays open")
}

// cellAt is the character at display column col of row ("" past its end).
func cellAt(row string, col int) string {
	x := 0
	for _, r := range row {
		if x == col {
			return string(r)
		}
		x += ansi.StringWidth(string(r))
		if x > col {
			return ""
		}
	}
	return ""
}

// The command palette fits the window at any size: its four rounded
// corners and both side borders are on screen around the title, the
// input and at least the selected command (at 40x12 the bottom border
// used to be cut, at 30x8 the right one).
func TestPaletteFitsTheWindow(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{30, 8}, {40, 12}, {60, 16}, {80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := tuitest.NewHarness(t, size[0], size[1])
			h.Send(tuitest.Ctrl('p'))
			require.NotNil(t, h.M.Palette)
			screen := ansi.Strip(h.Screen())
			rows := strings.Split(screen, "\n")
			top, title, left := -1, -1, -1
			for i, r := range rows {
				if j := strings.Index(r, "Commands"); j >= 0 {
					title = i
					// The palette's left border: the last │ before the title.
					pre := r[:j]
					k := strings.LastIndex(pre, "│")
					require.GreaterOrEqual(t, k, 0, "a left border beside the title\n%s", screen)
					left = ansi.StringWidth(pre[:k])
					break
				}
			}
			require.GreaterOrEqual(t, title, 0, "the palette is shown\n%s", screen)
			for i := title - 1; i >= 0; i-- {
				if cellAt(rows[i], left) == "╭" {
					top = i
					break
				}
			}
			require.GreaterOrEqual(t, top, 0, "a top border\n%s", screen)
			right := left + 1
			for cellAt(rows[top], right) == "─" {
				right++
			}
			require.Equal(t, "╮", cellAt(rows[top], right), "the top-right corner is on screen\n%s", screen)
			bottom := -1
			for i := title + 1; i < len(rows); i++ {
				if cellAt(rows[i], left) == "╰" {
					bottom = i
					break
				}
				require.Equal(t, "│", cellAt(rows[i], left), "row %d: left border\n%s", i, screen)
				require.Equal(t, "│", cellAt(rows[i], right), "row %d: right border\n%s", i, screen)
			}
			require.Positive(t, bottom, "a bottom border\n%s", screen)
			require.Equal(t, "╯", cellAt(rows[bottom], right), "the bottom-right corner\n%s", screen)
			require.Contains(t, strings.Join(rows[title:bottom], "\n"), "›", "the selected command is shown\n%s", screen)
			for _, r := range rows {
				require.LessOrEqual(t, ansi.StringWidth(r), size[0], "no line wider than the terminal")
			}
		})
	}
}
