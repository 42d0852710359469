package tui_test

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/require"
)

// These flows run the real Bubble Tea program (teatest) over the fake
// core. The program's output goes through a VT emulator so assertions are
// made on the screen a user would see, not on renderer escape codes.

// clock is a settable time source shared by the program and the test.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// screen replays program output into an emulator of the same size.
type screen struct {
	t   *testing.T
	tm  *teatest.TestModel
	emu *vt.SafeEmulator
	raw bytes.Buffer
}

func newScreen(t *testing.T, tm *teatest.TestModel, w, h int) *screen {
	emu := vt.NewSafeEmulator(w, h)
	// Drain the emulator's replies to terminal queries, or Write blocks.
	go func() { _, _ = io.Copy(io.Discard, emu) }()
	// Ending the drain by closing the input pipe (not emu.Close, which
	// races with Read upstream) lets the goroutine exit with the test.
	t.Cleanup(func() { _ = emu.InputPipe().(io.Closer).Close() })
	return &screen{t: t, tm: tm, emu: emu}
}

// waitFor polls the screen until it contains want.
func (s *screen) waitFor(want string) {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := io.ReadAll(s.tm.Output())
		if len(b) > 0 {
			s.raw.Write(b)
			// The output is not a tty in raw mode, so the renderer counts on
			// the line discipline's ONLCR (LF → CRLF); emulate it.
			_, _ = s.emu.Write(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
		}
		if strings.Contains(s.emu.String(), want) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("screen never showed %q; last screen:\n%s", want, s.emu.String())
}

func startFlow(t *testing.T) (*teatest.TestModel, *tuitest.FakeCore, *clock, *screen) {
	t.Helper()
	f := tuitest.NewFakeCore()
	clk := &clock{now: tuitest.T0}
	dark := true
	m := tui.New(f, tui.Options{Version: "test", Dark: &dark, Now: clk.Now})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36),
		teatest.WithProgramOptions(tea.WithEnvironment([]string{"TERM=xterm-256color"})))
	t.Cleanup(m.Close)
	return tm, f, clk, newScreen(t, tm, 120, 36)
}

// quit presses ctrl+c; the fake core always has a running shell, so the
// confirmation must name it, and a second ctrl+c exits.
func quit(t *testing.T, tm *teatest.TestModel, scr *screen) *tui.Model {
	t.Helper()
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	scr.waitFor("Quit alice?")
	scr.waitFor("sh1 in workspace research-aapl")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	return tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(*tui.Model)
}

func TestFlowChatStageApprove(t *testing.T) {
	t.Parallel()
	tm, f, clk, scr := startFlow(t)
	scr.waitFor("Ask Alice")
	scr.waitFor("MCP http://127.0.0.1:3001/mcp")

	f.Mu.Lock()
	f.Script = []chat.ChatEvent{
		{Kind: chat.ChatDelta, Text: "Staging the order."},
		{Kind: chat.ChatToolUse, Tool: "placeOrder", ToolID: "1", Input: `{"symbol":"AAPL","totalQuantity":"10"}`},
		{Kind: chat.ChatToolResult, Tool: "placeOrder", ToolID: "1", Output: `{"staged":true}`},
		{Kind: chat.ChatDone},
	}
	f.Mu.Unlock()
	tm.Type("buy 10 AAPL")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	scr.waitFor("Staging the order.")
	scr.waitFor("⚙ placeOrder")

	tm.Send(tea.KeyPressMsg{Code: '3', Mod: tea.ModAlt})
	scr.waitFor("Pending approval")
	tm.Send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	scr.waitFor("Approve and execute these orders?")
	// "y" right away is a stray key and must not approve.
	tm.Send(tea.KeyPressMsg{Code: 'y', Text: "y"})
	scr.waitFor("waiting for input to settle")
	clk.Add(time.Second)
	// The hint turns when the grace period ends, with no key pressed.
	scr.waitFor("y confirm · n/esc cancel")
	tm.Send(tea.KeyPressMsg{Code: 'y', Text: "y"})
	scr.waitFor("pushed 4d46698f")
	scr.waitFor("AAPL")

	m := quit(t, tm, scr)
	require.Nil(t, m.Dialog)
	f.Mu.Lock()
	defer f.Mu.Unlock()
	require.Equal(t, []string{"sim-paper"}, f.Approved)
	require.Equal(t, []string{"tui/default: buy 10 AAPL"}, f.Sent)
}

func TestFlowWorkspaceAttachEchoDetach(t *testing.T) {
	t.Parallel()
	tm, f, _, scr := startFlow(t)
	scr.waitFor("Ask Alice")
	tm.Send(tea.KeyPressMsg{Code: '4', Mod: tea.ModAlt})
	scr.waitFor("research-aapl")
	tm.Send(tea.KeyPressMsg{Code: 's', Text: "s"})
	scr.waitFor("● input")
	tm.Type("echo hi")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	scr.waitFor("$ echo hi")
	tm.Send(tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl})
	scr.waitFor("detached")

	m := quit(t, tm, scr)
	require.False(t, m.Workspaces.Attached())
	f.Mu.Lock()
	term := f.Terms["ws1"][0].(*tuitest.FakeTerm)
	f.Mu.Unlock()
	term.Mu.Lock()
	defer term.Mu.Unlock()
	require.Contains(t, term.Screen, "echo hi\nhi\n$ ")
	require.Contains(t, term.Keys, "esc", "esc reaches the session")
	require.NotContains(t, term.Keys, "ctrl+q")
}

func TestFlowPasteThreeLinesPaletteAndQuitWithY(t *testing.T) {
	t.Parallel()
	tm, f, _, scr := startFlow(t)
	scr.waitFor("Ask Alice")
	f.Mu.Lock()
	f.Script = []chat.ChatEvent{{Kind: chat.ChatDone, Text: "Three lines received."}}
	f.Mu.Unlock()
	tm.Send(tea.PasteMsg{Content: "alpha\nbeta\ngamma"})
	scr.waitFor("  gamma")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	scr.waitFor("Three lines received.")
	scr.waitFor("│ beta ") // the sent message keeps its three lines

	// The palette finds and runs an action.
	tm.Send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	scr.waitFor("Commands")
	tm.Type("go port")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	scr.waitFor("Pending approval")

	// q outside an input asks (a shell runs); y quits.
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	scr.waitFor("Quit alice?")
	tm.Send(tea.KeyPressMsg{Code: 'y', Text: "y"})
	m := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(*tui.Model)
	require.Error(t, m.Ctx.Err(), "quitting cancels the model's context")
	f.Mu.Lock()
	defer f.Mu.Unlock()
	require.Equal(t, []string{"tui/default: alpha\nbeta\ngamma"}, f.Sent)
}
