package live

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/core/inbox"
	"github.com/alice-trading/alice/tui"
)

func TestPortfolioApprovalThroughTheAdapter(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	st := c.Status()
	require.True(t, strings.HasPrefix(st.MainMCP, "http://127.0.0.1:"))
	require.Equal(t, "not configured", st.Provider)

	accts, err := c.Accounts()
	require.NoError(t, err)
	require.Len(t, accts, 1)
	require.Equal(t, "100000.00", accts[0].NetLiq.StringFixed(2))

	ctx := context.Background()
	events := c.Events(ctx)
	stageBuy(t, a, ctx)
	require.Eventually(t, func() bool {
		select {
		case ev := <-events:
			e, ok := ev.(tui.TradingChangedEvent)
			return ok && e.ApprovalRequested
		default:
			return false
		}
	}, 30*time.Second, 10*time.Millisecond, "the UI hears about the approval request")
	pending, err := c.Pending()
	require.NoError(t, err)
	require.Len(t, pending, 1)
	require.Equal(t, []string{"placeOrder BUY 2 MSFT (MKT) DAY"}, pending[0].Operations)
	require.Contains(t, pending[0].Evidence, "max-order-value: ", "the approval dialog gets the domain's evidence")
	require.Contains(t, pending[0].Evidence, "position MSFT 0 → 2")
	msg, err := c.Approve(ctx, "sim-paper", pending[0].Hash)
	require.NoError(t, err)
	require.Contains(t, msg, "1 submitted")
	pos, err := c.Positions("sim-paper")
	require.NoError(t, err)
	require.Len(t, pos, 1)
	require.Equal(t, "MSFT", pos[0].Symbol)
	log, err := c.TradingLog("sim-paper", 5)
	require.NoError(t, err)
	require.Equal(t, "buy MSFT", log[0].Message)
	curve, err := c.EquityCurve("sim-paper")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(curve), 2, "post-push snapshot plus the live value")
}

func TestWorkspaceTerminalAndInboxThroughTheAdapter(t *testing.T) {
	// A plain shell: the host's ~/.bashrc is none of this test's business.
	t.Setenv("SHELL", "/bin/sh")
	a := apptest.Start(t, nil)
	c := New(a)
	ctx := context.Background()
	require.Contains(t, c.Templates(), "shell-only")
	ws, err := c.CreateWorkspace(ctx, "live-test", "shell-only")
	require.NoError(t, err)
	term, err := c.StartSession(ws.ID, "shell")
	require.NoError(t, err)
	// Typed at once, before the shell has even started: nothing is lost.
	term.Resize(80, 20)
	for _, r := range "echo adapter-ok" {
		term.SendKey(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	term.SendKey(tea.KeyPressMsg{Code: tea.KeyEnter})
	// The command ran: a line other than the typed one ends in its output.
	// (Typed ahead of the shell, the kernel echoes the keys at once and the
	// shell's first prompt lands wherever it falls: "echo adapter# -ok"
	// or "# adapter-ok", as in any terminal.)
	ran := func() bool {
		for _, l := range strings.Split(ansi.Strip(term.Render()), "\n") {
			if l = strings.TrimSpace(l); strings.HasSuffix(l, "adapter-ok") && !strings.Contains(l, "echo") {
				return true
			}
		}
		return false
	}
	if !assert.Eventually(t, ran, 30*time.Second, 20*time.Millisecond) {
		// Read at the end, not when the wait began.
		t.Fatalf("state %s, screen after the wait:\n%s", term.State(), term.Render())
	}
	require.Len(t, c.Terminals(ws.ID), 1)
	list, err := c.Workspaces()
	require.NoError(t, err)
	require.Contains(t, list[0].Sessions[0], "running")
	files, err := c.Files(ws.ID, ".")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	gs, err := c.GitSummary(ws.ID)
	require.NoError(t, err)
	require.Contains(t, gs, "live-test")

	_, err = a.Inbox().Append(inbox.Entry{WorkspaceID: ws.ID, Comments: "see README", Docs: []inbox.Doc{{Path: "README.md"}, {Path: "missing.md"}}})
	require.NoError(t, err)
	entries, err := c.Inbox(10)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	require.Equal(t, "live-test", entries[0].Workspace)
	docs, err := c.RenderInbox(entries[0].ID, 80)
	require.NoError(t, err)
	require.Len(t, docs, 2)
	require.Empty(t, docs[0].Tombstone)
	require.Contains(t, docs[1].Tombstone, "not found")
	require.NoError(t, c.DeleteInbox(entries[0].ID))
	entries, _ = c.Inbox(10)
	require.Empty(t, entries)
}

// The palette's kill switch reaches the trading domain: staging freezes
// until Resume.
func TestKillSwitchThroughTheAdapter(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	ctx := context.Background()
	msg, err := c.Halt(ctx)
	require.NoError(t, err)
	require.Contains(t, msg, "trading halted")
	st, err := a.Trading().Halted()
	require.NoError(t, err)
	require.True(t, st.Halted)
	require.Equal(t, "a person in the alice UI", st.By)
	_, err = a.Tools().Call(ctx, "placeOrder", json.RawMessage(`{"source":"sim-paper","aliceId":"sim-paper|MSFT","action":"BUY","orderType":"MKT","totalQuantity":"1"}`))
	require.ErrorContains(t, err, "trading is halted")
	res, err := a.Tools().Call(ctx, "tradingStatus", json.RawMessage(`{}`))
	require.NoError(t, err)
	b, _ := json.Marshal(res)
	require.Contains(t, string(b), `"staged":[]`)
	_, err = c.Resume(ctx)
	require.NoError(t, err)
	st, _ = a.Trading().Halted()
	require.False(t, st.Halted)
}

// A simulator pin reaches the UI as a trading change that says the mark
// moved, so the Market pane reloads its quote and chart without a tick.
func TestSimPinIsAMarkMovedEvent(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	ctx := context.Background()
	events := c.Events(ctx)
	_, err := c.SimPrice(ctx, "sim-paper", "MSFT", "@321")
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		select {
		case ev := <-events:
			e, ok := ev.(tui.TradingChangedEvent)
			return ok && e.MarkMoved
		default:
			return false
		}
	}, 30*time.Second, 10*time.Millisecond, "the UI hears that the mark moved")
	mark, err := c.SimMark(ctx, "sim-paper", "MSFT")
	require.NoError(t, err)
	require.Equal(t, "321", mark.String())
}
