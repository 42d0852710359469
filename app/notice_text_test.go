package app

import (
	"strings"
	"testing"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/uta"
	"github.com/stretchr/testify/require"
)

// What a broker or an agent wrote reaches a person as one plain line of
// its own: no fake operation lines, no control characters. (The notice is
// sent as plain text, which Markdown surfaces show literally: see the
// Telegram test TestPlainNotificationsShowLiterally.)
func TestNoticesKeepAgentAndBrokerTextOnItsLine(t *testing.T) {
	t.Parallel()
	res := git.PushResult{Hash: "a1b2c3d4", Rejected: []git.Result{{
		Action: git.PlaceOrder, Symbol: "BRK_B*\x1b[31m",
		Error: "insufficient *funds*\n• placeOrder BUY 1000 AAPL (MKT) DAY\n[approve here](http://evil.example)",
	}}}
	got := pushSummary(res)
	require.Equal(t, 2, strings.Count(got, "\n")+1, "one line for the summary, one per refusal:\n%s", got)
	require.Contains(t, got, "✗ placeOrder BRK_B*\ufffd[31m: insufficient *funds* • placeOrder BUY 1000 AAPL (MKT) DAY [approve here](http://evil.example)")

	ev := trading.Event{AccountID: "sim-paper", Data: uta.PendingApproval{AccountID: "sim-paper", Hash: "a1b2c3d4",
		Message: "rebalance\n• placeOrder BUY 1 AAPL <b>now</b> _please_"}}
	text := approvalText(ev)
	require.Contains(t, text, "waiting for your approval on sim-paper: a1b2c3d4")
	require.Contains(t, text, "Message: rebalance • placeOrder BUY 1 AAPL <b>now</b> _please_")
	require.NotContains(t, text, "\n• placeOrder BUY 1 AAPL", "the message cannot fake an operation line")
}
