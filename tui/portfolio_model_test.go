package tui

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestApproveNeedsConfirmAndIgnoresStrayKeys(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("alt+3")
	require.Contains(t, h.screen(), "Pending approval")
	h.key("a")
	require.NotNil(t, h.m.dialog)
	// Keys arriving right away (still typing) are ignored, even "y".
	h.now = h.now.Add(100 * time.Millisecond)
	h.key("y")
	require.NotNil(t, h.m.dialog)
	require.Empty(t, h.f.approved)
	h.now = h.now.Add(300 * time.Millisecond)
	h.key("y") // still within 500 ms of the last key
	require.Empty(t, h.f.approved)
	h.now = h.now.Add(600 * time.Millisecond)
	h.key("y")
	require.Nil(t, h.m.dialog)
	require.Equal(t, []string{"sim-paper"}, h.f.approved)
	require.Contains(t, h.screen(), "pushed 4d46698f")
}

func TestRejectCanBeCancelled(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("alt+3", "x")
	h.now = h.now.Add(time.Second)
	h.key("n")
	require.Nil(t, h.m.dialog)
	require.Empty(t, h.f.rejected)
	h.key("x")
	h.now = h.now.Add(time.Second)
	h.key("y")
	require.Equal(t, []string{"sim-paper"}, h.f.rejected)
}
