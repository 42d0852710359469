package tui_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// frameModel shows whatever frame it was last sent.
type frameModel struct{ content string }

type frameMsg string

func (m frameModel) Init() tea.Cmd { return nil }

func (m frameModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if f, ok := msg.(frameMsg); ok {
		m.content = string(f)
	}
	return m, nil
}

func (m frameModel) View() tea.View {
	v := tea.NewView(m.content)
	v.AltScreen = true
	return v
}

// emuScreen is a terminal emulator fed by the program's output.
type emuScreen struct {
	mu  sync.Mutex
	emu *vt.Emulator
}

// Write feeds p to the emulator as a tty would pass it on (ONLCR: a line
// feed is written as CR LF).
func (s *emuScreen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.emu.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// runOnEmulator runs m until the test ends in a program whose output
// feeds a w×h emulator (a true-colour xterm, no input, no signals).
func runOnEmulator(t *testing.T, m tea.Model, w, h int, opts ...tea.ProgramOption) (*tea.Program, *emuScreen) {
	t.Helper()
	scr := &emuScreen{emu: vt.NewEmulator(w, h)}
	go func() { _, _ = io.Copy(io.Discard, scr.emu) }() // the emulator's replies
	// Ending the drain by closing the input pipe (emu.Close races with Read).
	t.Cleanup(func() { _ = scr.emu.InputPipe().(io.Closer).Close() })
	p := tea.NewProgram(m, append([]tea.ProgramOption{
		tea.WithInput(nil), tea.WithOutput(scr), tea.WithWindowSize(w, h),
		tea.WithoutSignals(), tea.WithColorProfile(colorprofile.TrueColor),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}),
	}, opts...)...)
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	t.Cleanup(func() { p.Quit(); <-done })
	return p, scr
}

// diff describes the first cells where the emulator differs from want.
func (s *emuScreen) diff(want uv.ScreenBuffer) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for y := 0; y < want.Height(); y++ {
		for x := 0; x < want.Width(); x++ {
			got, exp := s.emu.CellAt(x, y), want.CellAt(x, y)
			if got == nil || exp == nil {
				continue
			}
			g, e := *got, *exp
			if g.Content == "" {
				g.Content = " "
			}
			if e.Content == "" {
				e.Content = " "
			}
			if g.Content != e.Content || g.Width != e.Width || !g.Style.Equal(&e.Style) || g.Link != e.Link {
				out = append(out, fmt.Sprintf("(%d,%d) got %q %+v %+v, want %q %+v %+v", x, y, g.Content, g.Style, g.Link, e.Content, e.Style, e.Link))
				if len(out) == 5 {
					return strings.Join(out, "\n")
				}
			}
		}
	}
	return strings.Join(out, "\n")
}

// TestRendererDrawsEveryFrameExactly drives the (patched) Bubble Tea
// renderer with frames that change a few lines at a time — the patch
// re-parses only changed lines when every line ends with a clean style —
// and requires the terminal fed with its output to show each frame exactly
// as a fresh parse of the whole frame gives it, scrolled or not: styles that reset at the
// line's end and styles that run on into the next line, hyperlinks, wide
// characters, lines longer than the screen and frames shorter than it.
func TestRendererDrawsEveryFrameExactly(t *testing.T) {
	t.Parallel()
	const w, h = 40, 12
	p, scr := runOnEmulator(t, frameModel{}, w, h, tea.WithFPS(120))

	pool := []string{
		"plain text",
		"\x1b[1mbold\x1b[m and plain",
		"\x1b[38;2;10;200;30mgreen\x1b[m",
		"\x1b[7mreverse to the end of the line, reset\x1b[0m",
		"\x1b[1;31mbold red that runs on", // style open at the end
		"\x1b[4munderline open",           // style open at the end
		"after an open style",             // inherits it in a full parse
		"\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ text",
		"\x1b]8;;https://example.com\x1b\\link left open", // open hyperlink
		"日本語の文字 wide",
		"🙂 smile",
		strings.Repeat("long-", 12), // wider than the screen
		"",
		"│ \x1b[38;5;4m│\x1b[m framed \x1b[38;5;4m│\x1b[m",
		"\x1b[?25hnot an sgr", // a sequence the patch does not know
	}
	check := func(frame int, content string) {
		t.Helper()
		want := uv.NewScreenBuffer(w, h)
		want.Method = ansi.GraphemeWidth
		uv.NewStyledString(content).Draw(want, want.Bounds())

		p.Send(frameMsg(content))
		deadline := time.Now().Add(30 * time.Second)
		for scr.diff(want) != "" && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if d := scr.diff(want); d != "" {
			scr.mu.Lock()
			shownText := scr.emu.String()
			scr.mu.Unlock()
			t.Fatalf("frame %d: the terminal differs from the frame:\n%s\nframe:\n%q\nterminal:\n%s", frame, d, content, shownText)
		}
	}
	// A frame's last line is never checked for a style left open (nothing
	// follows it); the same line with a line after it in the next frame
	// must be (the renderer remembers which lines it found clean).
	check(-3, "plain\n\x1b[1;31mbold red that runs on")
	check(-2, "plain\n\x1b[1;31mbold red that runs on\nafter an open style")
	check(-1, "other\n\x1b[1;31mbold red that runs on\nafter it, changed")

	rng := rand.New(rand.NewPCG(23, 42))
	lines := make([]string, h)
	for i := range lines {
		lines[i] = pool[rng.IntN(len(pool))]
	}
	for frame := 0; frame < 300; frame++ {
		if frame%11 == 0 {
			// Everything moves up a line (the renderer may scroll).
			lines = append(lines[1:], pool[rng.IntN(len(pool))])
		}
		for n := 1 + rng.IntN(3); n > 0; n-- {
			lines[rng.IntN(h)] = pool[rng.IntN(len(pool))]
		}
		shown := lines
		if frame%37 == 0 {
			shown = lines[:h/2] // a frame shorter than the screen
		}
		check(frame, strings.Join(shown, "\n"))
	}
}

// On a terminal without grapheme clustering (no mode 2027: tmux 3.3a,
// xterm) the renderer measures with wcwidth, while the layout measured each
// cluster as one character: emoji with a skin tone, joined by ZWJ or with a
// variation selector must still leave every row exactly as wide as laid
// out, its right border in the last column.
func TestRendererKeepsRowWidthsWithoutGraphemeClustering(t *testing.T) {
	t.Parallel()
	const w, h = 30, 8
	p, scr := runOnEmulator(t, frameModel{}, w, h)

	texts := []string{"👍🏽 thumbs", "👨\u200d👩\u200d👧 family", "⚠\ufe0f careful", "🇺🇸 flag", "✅ done",
		"\x1b[31m👩🏿\u200d🔬\x1b[m \x1b]8;;http://x/y\x1b\\link👍🏽\x1b]8;;\x1b\\", "plain"}
	row := func(s string) string {
		pad := w - 2 - ansi.StringWidth(s) // as lipgloss lays it out
		return "│" + s + strings.Repeat(" ", pad) + "\x1b[1m│\x1b[m"
	}
	var lines []string
	for _, s := range texts {
		lines = append(lines, row(s))
	}
	for frame := 0; frame < 2; frame++ { // a full frame, then one changed line
		if frame == 1 {
			lines[2] = row("⚠\ufe0f changed 👍🏽")
		}
		p.Send(frameMsg(strings.Join(lines, "\n")))
		ok := assert.Eventually(t, func() bool {
			scr.mu.Lock()
			defer scr.mu.Unlock()
			for y := range lines {
				if c := scr.emu.CellAt(w-1, y); c == nil || c.Content != "│" {
					return false
				}
			}
			return strings.Contains(scr.emu.String(), "changed") == (frame == 1)
		}, 30*time.Second, time.Millisecond)
		if !ok {
			scr.mu.Lock()
			shown := scr.emu.String()
			scr.mu.Unlock()
			t.Fatalf("frame %d: a row is not %d cells wide:\n%s", frame, w, shown)
		}
	}
	scr.mu.Lock()
	defer scr.mu.Unlock()
	shown := scr.emu.String()
	require.Contains(t, shown, "👍 thumbs")
	require.Contains(t, shown, "⚠  changed 👍")
	require.Contains(t, shown, "👩 link👍", "escape sequences are kept byte for byte")
	var url string
	for x := 0; x+1 < w; x++ {
		if c, n := scr.emu.CellAt(x, 5), scr.emu.CellAt(x+1, 5); c != nil && n != nil && c.Content == "l" && n.Content == "i" {
			url = c.Link.URL
		}
	}
	require.Equal(t, "http://x/y", url, "the link is kept")
}
