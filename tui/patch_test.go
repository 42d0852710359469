package tui_test

import (
	"cmp"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/workspace"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// sessionModel frames a session's screen as the workspaces pane does: a
// line above, a border column each side, a line below; the session's
// top-left cell is at (1, 1).
type sessionModel struct {
	term  *workspace.Terminal
	cols  int                // the session's width (sessCols when 0)
	armed bool               // holdMsg: the next View waits after reading the screen
	held  chan chan struct{} // where that View says so, with the channel that releases it
	gen   int
}

type (
	refreshMsg struct{} // the session changed (TermChangedMsg)
	holdMsg    struct{} // the next View waits, to be overtaken by a patch
	quietMsg   struct{} // the session changed; the header stays (the view may equal the last one)
)

const sessCols, sessRows = 30, 8

func (m *sessionModel) Init() tea.Cmd { return nil }

func (m *sessionModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case holdMsg:
		m.gen++
		m.armed = true
	case refreshMsg:
		m.gen++
	}
	return m, nil
}

func (m *sessionModel) View() tea.View {
	screen, x, y, vis := m.term.Frame()
	if m.armed {
		m.armed = false
		release := make(chan struct{})
		m.held <- release
		<-release
	}
	v := tea.NewView(sessionFrame(screen, m.gen, cmp.Or(m.cols, sessCols)))
	v.AltScreen = true
	if vis {
		v.Cursor = tea.NewCursor(1+x, 1+y)
	}
	return v
}

// sessionFrame is the window: the header changes with every update, so
// every view differs from the last one.
func sessionFrame(screen string, gen, cols int) string {
	lines := []string{fmt.Sprintf("header %d", gen)}
	for l := range strings.SplitSeq(screen, "\n") {
		l = ansi.Truncate(l, cols, "")
		lines = append(lines, "│"+l+strings.Repeat(" ", cols-ansi.StringWidth(l))+"\x1b[m│")
	}
	return strings.Join(append(lines, "footer"), "\n")
}

// patchSession patches the session's changed rows into p's frame as the
// workspaces pane does, the session's top-left cell at (1, 1).
func patchSession(p *tea.Program, term *workspace.Terminal, cols, rows int) bool {
	return p.Patch(func(frame *uv.RenderBuffer) (*tea.Cursor, bool) {
		x, y, vis, ok := term.PatchCells(frame, 1, 1, cols, rows)
		if !ok {
			return nil, false
		}
		if !vis {
			return nil, true
		}
		return tea.NewCursor(1+x, 1+y), true
	})
}

// TestPatchedEchoesLeaveTheScreenAsTheModelDrawsIt feeds a session random
// output and draws each change either straight into the frame on screen
// (Program.Patch with Terminal.PatchCells, as an attached session's echo
// is drawn) followed by the model's own frame for it, or by the model's
// frame alone, sometimes with a view begun before a patch and finished
// after it. After every step the terminal fed the program's output must
// show exactly the frame the model draws from the session's screen now,
// and right after a patch its rows and cursor must already be the
// session's.
func TestPatchedEchoesLeaveTheScreenAsTheModelDrawsIt(t *testing.T) {
	t.Parallel()
	const w, h = sessCols + 2, sessRows + 2
	term := workspace.NewTerminal(sessCols, sessRows, slog.New(slog.DiscardHandler))
	t.Cleanup(term.Close)
	m := &sessionModel{term: term, held: make(chan chan struct{})}
	// A barrier passes the event loop without an update or a view: when
	// it is through, the loop has handed the renderer every view before it.
	type barrier chan struct{}
	p, scr := runOnEmulator(t, m, w, h, tea.WithFPS(480),
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			if b, ok := msg.(barrier); ok {
				close(b)
				return nil
			}
			return msg
		}))

	patch := func() bool { return patchSession(p, term, sessCols, sessRows) }
	// want is the model's frame of the session's screen now, minus the
	// header (which counts updates).
	want := func() uv.ScreenBuffer {
		b := uv.NewScreenBuffer(w, h)
		b.Method = ansi.GraphemeWidth
		uv.NewStyledString(sessionFrame(term.Render(), 0, sessCols)).Draw(b, b.Bounds())
		return b
	}
	// frameRows waits until the renderer has drawn every view handed to it
	// (a patch runs only then) and tells how the rows of the frame it holds
	// — what the terminal was last sent — differ from the session's screen.
	frameRows := func() string {
		b := make(barrier)
		p.Send(b)
		<-b
		var diff []string
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			ran := false
			p.Patch(func(frame *uv.RenderBuffer) (*tea.Cursor, bool) {
				ran = true
				wb := want()
				for y := 1; y < h; y++ {
					for x := 0; x < w; x++ {
						g, e := frame.CellAt(x, y), wb.CellAt(x, y)
						if g != nil && e != nil && (strings.TrimSpace(g.Content) != strings.TrimSpace(e.Content) || !g.Style.Equal(&e.Style)) {
							diff = append(diff, fmt.Sprintf("(%d,%d) %q/%q", x, y, g.Content, e.Content))
						}
					}
				}
				return nil, false
			})
			if ran {
				return strings.Join(diff, " ")
			}
		}
		return "the renderer never settled"
	}
	rowsDiff := func() string {
		wb := want()
		var out []string
		for y := 1; y < h; y++ {
			for x := 0; x < w; x++ {
				g, e := scr.cell(x, y), wb.CellAt(x, y)
				if e == nil {
					continue
				}
				if g.Content != e.Content && !(g.Content == " " && e.Content == "") && !(g.Content == "" && e.Content == " ") || !g.Style.Equal(&e.Style) {
					out = append(out, fmt.Sprintf("(%d,%d) %q/%q", x, y, g.Content, e.Content))
				}
			}
		}
		return strings.Join(out, " ")
	}
	cursorAt := func() (int, int, bool) {
		_, x, y, vis := term.Frame()
		return 1 + x, 1 + y, vis
	}
	// settle waits until the event loop has taken every message sent so
	// far and the frame of the model's last update (its header) is on
	// screen: then the model is idle and the rows must be the session's.
	sent := 0
	send := func(msg tea.Msg) { sent++; p.Send(msg) }
	settle := func(step int, what string) {
		t.Helper()
		b := make(barrier) // every message sent so far is through the event loop
		p.Send(b)
		<-b
		header := fmt.Sprintf("header %d", sent)
		deadline := time.Now().Add(30 * time.Second)
		for (rowsDiff() != "" || strings.TrimRight(scr.line(0), " ") != header) && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		require.Empty(t, rowsDiff(), "step %d (%s): the terminal differs from the session's frame:\n%s", step, what, scr.text())
		require.Equal(t, header, strings.TrimRight(scr.line(0), " "), "step %d (%s): the model's last frame never came", step, what)
	}

	rng := rand.New(rand.NewPCG(7, 11))
	words := []string{"ls", "-la", "echo", "héllo", "│box│", "x", "AbC", "$ ", "12.50", "~/work", "日本", "é", "🙂", "✅x"}
	chunk := func() string {
		var b strings.Builder
		for n := 1 + rng.IntN(3); n > 0; n-- {
			switch r := rng.IntN(20); {
			case r < 10:
				b.WriteString(words[rng.IntN(len(words))])
			case r < 12:
				fmt.Fprintf(&b, "\x1b[3%dm%s\x1b[m", 1+rng.IntN(6), words[rng.IntN(len(words))])
			case r < 13:
				b.WriteString("\r\n")
			case r < 15:
				fmt.Fprintf(&b, "\x1b[%d;%dH", 1+rng.IntN(sessRows), 1+rng.IntN(sessCols))
			case r < 16:
				b.WriteString("\x1b[K")
			case r < 17:
				b.WriteString("\b \b")
			case r < 18:
				b.WriteString("\x1b[?25l")
			default:
				b.WriteString("\x1b[?25h")
			}
		}
		return b.String()
	}
	send(refreshMsg{})
	settle(-1, "first frame")
	patched := 0
	// undone draws a known row, patches change to it and takes the change
	// back before the model's next frame, which frame sends.
	undone := func(step int, known, change, back string, frame func(), what string) {
		t.Helper()
		term.Feed([]byte(known))
		send(refreshMsg{})
		settle(step, "a known row")
		term.Feed([]byte(change))
		if patch() {
			patched++
		}
		term.Feed([]byte(back))
		frame()
		settle(step, what)
	}
	for step := 0; step < 400; step++ {
		switch mode := rng.IntN(6); mode {
		case 0, 1: // an echo: patched at once, then the model's frame
			term.Feed([]byte(chunk()))
			if patch() {
				patched++
				require.Empty(t, rowsDiff(), "step %d: right after the patch:\n%s", step, scr.text())
				x, y, vis := cursorAt()
				if vis {
					gx, gy := scr.cursor()
					require.Equal(t, [2]int{x, y}, [2]int{gx, gy}, "step %d: the cursor after the patch", step)
				}
			}
			send(refreshMsg{})
			settle(step, "patch, then the model's frame")
		case 2: // the model's frame alone
			term.Feed([]byte(chunk()))
			send(refreshMsg{})
			settle(step, "the model's frame")
		case 3: // a view that read the screen before a patch, finished after it
			send(holdMsg{})
			release := <-m.held // View has read the screen and waits
			term.Feed([]byte(chunk()))
			ok := patch()
			close(release)
			if ok {
				patched++
				// The view that read the screen before the patch is not
				// drawn over it.
				require.Empty(t, frameRows(), "step %d: a view begun before a patch undid it", step)
			}
			send(refreshMsg{})
			settle(step, "a stale view overtaken by a patch")
		case 4: // a patched change undone before the model's next frame
			undone(step, "\x1b[1;1H\x1b[2Kknown line\x1b[m", "\x1b[1;1HZ", "\x1b[1;1Hk",
				func() { send(refreshMsg{}) }, "a patch undone, then the model's frame")
		case 5: // the same, the model's next frame equal to the one before the patch
			// The cursor is saved and restored around each change, so
			// only the row differs, and the revert restores it exactly.
			undone(step, "\x1b[2;1H\x1b[2Kstatus AAAA\x1b[m", "\x1b7\x1b[2;8HBBBB\x1b8", "\x1b7\x1b[2;8HAAAA\x1b8",
				func() { p.Send(quietMsg{}) }, "a patch undone, then a frame equal to the last")
		}
	}
	require.Greater(t, patched, 100, "most echoes must be patched")
}

func (s *emuScreen) cell(x, y int) uv.Cell {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.emu.CellAt(x, y); c != nil {
		return *c
	}
	return uv.Cell{}
}

func (s *emuScreen) cursor() (int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.emu.CursorPosition()
	return p.X, p.Y
}

func (s *emuScreen) line(y int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines := strings.Split(s.emu.String(), "\n")
	if y < len(lines) {
		return lines[y]
	}
	return ""
}

func (s *emuScreen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emu.String()
}
