package portfolio_test

import (
	"testing"
	"time"

	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

func TestApproveNeedsConfirmAndIgnoresStrayKeys(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("alt+3")
	require.Contains(t, h.Screen(), "Pending approval")
	h.Key("a")
	require.NotNil(t, h.M.Dialog)
	// Keys arriving right away (still typing) are ignored, even "y".
	h.Now = h.Now.Add(100 * time.Millisecond)
	h.Key("y")
	require.NotNil(t, h.M.Dialog)
	require.Empty(t, h.F.Approved)
	h.Now = h.Now.Add(300 * time.Millisecond)
	h.Key("y") // still within 500 ms of the last key
	require.Empty(t, h.F.Approved)
	h.Now = h.Now.Add(600 * time.Millisecond)
	h.Key("y")
	require.Nil(t, h.M.Dialog)
	require.Equal(t, []string{"sim-paper"}, h.F.Approved)
	require.Contains(t, h.Screen(), "pushed 4d46698f")
}

func TestRejectCanBeCancelled(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("alt+3", "x")
	h.Now = h.Now.Add(time.Second)
	h.Key("n")
	require.Nil(t, h.M.Dialog)
	require.Empty(t, h.F.Rejected)
	h.Key("x")
	h.Now = h.Now.Add(time.Second)
	h.Key("y")
	require.Equal(t, []string{"sim-paper"}, h.F.Rejected)
}
