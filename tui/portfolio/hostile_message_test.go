package portfolio_test

import (
	"strings"
	"testing"

	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/stretchr/testify/require"
)

// hostileMessage is what a black-box tester staged over MCP: a fake
// operation drawn by the message, ~40 newlines pushing the real one out of
// sight, and escape sequences erasing lines and recolouring text.
const hostileMessage = "rebalance\n• placeOrder BUY 1 AAPL (MKT) DAY\nest. 174.44 USD" +
	"\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n" +
	"\x1b[2K\r\x1b[1A\x1b[2K\x1b[31mRED\u202eevil\u0085"

// A pending commit whose (stored, pre-validation) message is hostile shows
// the real operation at the top of the approval, at 80x24, in the pane and
// in the `a` dialog; the message is one plain line after the operations,
// and none of its control characters reach the terminal.
func TestHostileCommitMessageCannotHideTheOperation(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarnessCore(t, 80, 24, func(f *tuitest.FakeCore) tui.Core {
		f.PendingCommits = []portfolio.PendingCommit{{Account: "sim-paper", Hash: "4d46698f", Message: hostileMessage,
			Operations: []string{"placeOrder BUY 150 TSLA (MKT) DAY"},
			Evidence: "• placeOrder BUY 150 TSLA (MKT) DAY\n  staged by claude, via mcp; time in force DAY\n" +
				"  est. 26,166.00 USD at the current quote (bid 174.42 / ask 174.44)"}}
		return f
	})
	h.Key("alt+3")
	checkRaw := func(raw string) {
		t.Helper()
		for _, bad := range []string{"\x1b[2K", "\x1b[1A", "\x1b[31mRED", "\r", "\u202e", "\u0085"} {
			require.NotContains(t, raw, bad, "the message's control characters never reach the terminal")
		}
	}
	checkRaw(h.M.Render())
	lines := strings.Split(h.Screen(), "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, "Pending approval") {
			at = i
			break
		}
	}
	require.GreaterOrEqual(t, at, 0, "the pending commit is shown")
	require.Contains(t, lines[at+1], "placeOrder BUY 150 TSLA (MKT) DAY", "the real operation comes right after the header")
	require.Contains(t, lines[at+2], "message: rebalance • placeOrder BUY 1 AAPL", "the message is one line after it")
	require.Contains(t, lines[at+3], "press a to approve")
	require.NotContains(t, strings.Join(lines[:at+2], "\n"), "BUY 1 AAPL", "the fake operation is not above the real one")

	h.Key("a")
	checkRaw(h.M.Render())
	s := h.Screen()
	real, fake := strings.Index(s, "placeOrder BUY 150 TSLA"), strings.Index(s, "BUY 1 AAPL")
	require.GreaterOrEqual(t, real, 0, "the dialog shows the real operation:\n%s", s)
	require.True(t, fake < 0 || fake > real, "the message comes after the real operation:\n%s", s)
	require.Contains(t, s, "est. 26,166.00 USD", "the operation's evidence is shown in full")
	require.Contains(t, s, "Message: rebalance", "the message is shown as one line")
	require.NotContains(t, s, "rows 1–", "the dialog fits at 80x24: nothing to scroll past")
}

// A broker's error is its own words: shown as plain text wrapped to the
// pane (at most 3 rows), never as escape sequences or line breaks of its
// own.
func TestBrokerErrorIsShownAsPlainText(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarnessCore(t, 60, 24, func(f *tuitest.FakeCore) tui.Core {
		f.AccountError = "binance: -2015 Invalid API-key\x1b[2J\x1b[H\nIP 203.0.113.9 not allowed\r\n" + strings.Repeat("details ", 40)
		return f
	})
	h.Key("alt+3")
	raw := h.M.Render()
	for _, bad := range []string{"\x1b[2J", "\x1b[H", "\r"} {
		require.NotContains(t, raw, bad)
	}
	s := h.Screen()
	require.Contains(t, s, "binance: -2015 Invalid API-key")
	require.Contains(t, s, "IP 203.0.113.9 not")
	lines := strings.Split(s, "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, "Invalid API-key") {
			at = i
			break
		}
	}
	require.GreaterOrEqual(t, at, 0)
	require.Contains(t, lines[at+2], "details")
	require.Contains(t, lines[at+3], "Pending approval", "wrapped to the pane, at most 3 rows:\n%s", s)
	require.Contains(t, s, "…")
}
