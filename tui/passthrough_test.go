package tui_test

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/workspace"
)

// attachLog stands for the Workspaces pane with a session attached or not:
// while attached it forwards every key to the session (encoded as the pane
// encodes them) and offers a text sink (tea.TextTaker); ctrl+q detaches,
// ctrl+a attaches again; a key while detached goes to the list.
type attachLog struct {
	*attachState
}

type attachState struct {
	attached bool // event loop only
	sink     *logSink

	mu      sync.Mutex
	session strings.Builder // what the session got, keys and text in order
	list    strings.Builder // keys the detached pane got
	passed  int             // reads the sink took
}

type logSink struct{ s *attachState }

func (l *logSink) TakeText(b []byte) bool {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	l.s.session.Write(b)
	l.s.passed++
	return true
}

func (a attachLog) Init() tea.Cmd { return nil }
func (a attachLog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return a, nil
	}
	switch {
	case kp.String() == "ctrl+q":
		a.attached = false
	case kp.String() == "ctrl+a":
		a.attached = true
	case a.attached:
		a.mu.Lock()
		a.session.Write(workspace.EncodeKey(workspace.KeyPress(kp.Key()), false))
		a.mu.Unlock()
	default:
		a.mu.Lock()
		a.list.WriteString(kp.Text)
		a.mu.Unlock()
	}
	return a, nil
}
func (a attachLog) View() tea.View { return tea.NewView("") }

func (a attachLog) TextSink() tea.TextSink {
	if !a.attached {
		return nil
	}
	return a.sink
}

func (s *attachState) logs() (session, list string, passed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.session.String(), s.list.String(), s.passed
}

func newAttachLog(attached bool) attachLog {
	s := &attachState{attached: attached}
	s.sink = &logSink{s}
	return attachLog{s}
}

// TestTypedTextSkipsTheEventLoop: while the model offers a text sink, a
// read that is only typed text goes straight to it from the input reader;
// a key that is not text (ctrl+c, an arrow) still reaches Update, in order.
func TestTypedTextSkipsTheEventLoop(t *testing.T) {
	m := newAttachLog(true)
	master, tty, _ := runOnPty(t, m)
	waitRaw(t, tty)
	typed := ""
	for _, in := range []string{"l", "s", " ", "-", "l", "é", "日本", "\r", "x", "\x7f", "\x03", "y", "\x1b[A", "z"} {
		_, err := master.WriteString(in)
		require.NoError(t, err)
		typed += in
		require.Eventually(t, func() bool { s, _, _ := m.logs(); return s == typed }, 30*time.Second, time.Millisecond, "after %q", in)
	}
	_, list, passed := m.logs()
	require.Empty(t, list)
	// The first read goes through the parser (a new reader is unsure of
	// it) and so does the read after each key that is not text; the
	// others are each one read of text taken by the sink.
	require.GreaterOrEqual(t, passed, 5, "typed text never skipped the event loop")
}

// TestTextSinkKeepsTheOrderOfKeys types random runs of text, detach
// (ctrl+q) and attach (ctrl+a), each in its own write and without waiting,
// many times: whatever reads the terminal coalesces them into, the session
// gets exactly the text typed while attached and the list exactly the text
// typed while detached, in order — the sink never lets text overtake a
// key still on its way through Update.
func TestTextSinkKeepsTheOrderOfKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 23))
	m := newAttachLog(true)
	master, tty, _ := runOnPty(t, m)
	waitRaw(t, tty)
	var wantSession, wantList strings.Builder
	attached := true
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	for round := 0; round < 40; round++ {
		for i := 0; i < 30; i++ {
			var in string
			switch r := rng.IntN(10); {
			case r == 0:
				in, attached = "\x11", false
			case r == 1:
				in, attached = "\x01", true
			default:
				n := 1 + rng.IntN(3)
				for j := 0; j < n; j++ {
					in += string(letters[rng.IntN(len(letters))])
				}
				if attached {
					wantSession.WriteString(in)
				} else {
					wantList.WriteString(in)
				}
			}
			_, err := master.WriteString(in)
			require.NoError(t, err)
			if rng.IntN(4) == 0 {
				time.Sleep(time.Duration(rng.IntN(300)) * time.Microsecond)
			}
		}
		// End each round detached with a mark in the list, and wait for it.
		end := string(rune('A' + round%26))
		_, err := master.WriteString("\x11" + end)
		require.NoError(t, err)
		attached = false
		wantList.WriteString(end)
		want := wantList.String()
		require.Eventually(t, func() bool { _, l, _ := m.logs(); return len(l) >= len(want) }, 30*time.Second, time.Millisecond)
		session, list, _ := m.logs()
		require.Equal(t, wantSession.String(), session, "round %d: the session's text", round)
		require.Equal(t, want, list, "round %d: the list's keys", round)
		_, err = master.WriteString("\x01")
		require.NoError(t, err)
		attached = true
	}
	_, _, passed := m.logs()
	require.Positive(t, passed, "no read was ever passed through: the test did not test the sink")
}
