package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/alice-trading/alice/core/termmodes"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/require"
)

func TestAttachProxiesUntilDetachKey(t *testing.T) {
	t.Parallel()
	s := runningShell(t, "zoom", 0, 0)

	inW, out, done := zoomInto(t, s)

	_, err := inW.Write([]byte("echo zoom-$((3+4))\r"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "zoom-7") }, waitFor, tick)
	// The CSI-u ctrl+q arrives split across two reads.
	_, err = inW.Write([]byte("\x1b[113"))
	require.NoError(t, err)
	time.Sleep(50 * time.Millisecond) // let the first half be read on its own
	_, err = inW.Write([]byte(";5u"))
	require.NoError(t, err)
	waitZoomEnd(t, done)
	st, _ := s.State()
	require.Equal(t, StateRunning, st, "detaching leaves the session running")
	require.NotContains(t, s.Screen(), "113;5u", "the detach key is not forwarded")
}

// A lone Escape typed in a zoom reaches the program at once: it was held
// as the possible start of a split detach key until the next key came,
// which then arrived behind it as alt+key (a zoomed vim stayed in insert
// mode; black-box report).
func TestZoomPassesALoneEscapeAtOnce(t *testing.T) {
	t.Parallel()
	s := runningShell(t, "zoom-esc", 0, 0)
	inW, _, done := zoomInto(t, s)
	_, err := inW.Write([]byte("echo go"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return strings.Contains(s.Screen(), "echo go") }, waitFor, tick)
	_, err = inW.Write([]byte("\x1b"))
	require.NoError(t, err)
	// The line discipline echoes ESC as ^[ (ECHOCTL).
	require.Eventually(t, func() bool { return strings.Contains(s.Screen(), "echo go^[") }, waitFor, tick)
	detachZoom(t, inW, done)
}

// A detach key inside a bracketed paste is text of the paste: pasting
// ctrl+q in a zoom detached mid-paste, left the program in an unended
// paste and handed the rest to the UI as keys ("hello^Qqy" quit alice).
func TestZoomPasteKeepsItsDetachKeys(t *testing.T) {
	t.Parallel()
	s := runningShell(t, "zoom-paste", 0, 0)
	inW, _, done := zoomInto(t, s)
	// The paste's end marker split from the rest, as a read may split it.
	_, err := inW.Write([]byte("\x1b[200~hello\x11q\x1b[113;5uy\x1b[20"))
	require.NoError(t, err)
	time.Sleep(20 * time.Millisecond) // let the first part be read on its own
	_, err = inW.Write([]byte("1~\recho after-$((1+1))\r"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return strings.Contains(s.Screen(), "after-2") }, waitFor, tick,
		"the input after the paste reached the session")
	select {
	case err := <-done:
		t.Fatalf("the zoom ended inside the paste: %v", err)
	default:
	}
	detachZoom(t, inW, done)
}

func TestDetachScanner(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in      string
		idx     int
		partial int
	}{
		{"abc", -1, 0},
		{"ab\x11cd", 2, 0},
		{"ab\x1b[113", -1, 5},
		{"ab\x1b[27;5;1", -1, 8},
		{"x\x1b[113;5uy", 1, 0},
		{"\x1b", -1, 0},   // the Escape key, not held for the next read
		{"a\x1b[", -1, 0}, // alt+[
		{"\x1b[1", -1, 3},
		{"\x1b[200~a\x11b\x1b[113;5u\x1b[201~", -1, 0}, // pasted: text
		{"\x1b[200~\x11\x1b[201~\x11", 13, 0},          // typed after the paste
	}
	for _, tc := range cases {
		i, _, _ := findDetachOutsidePaste([]byte(tc.in), DefaultDetachKeys, false)
		require.Equal(t, tc.idx, i, "%q", tc.in)
		if i < 0 {
			require.Equal(t, tc.partial, partialDetachSuffix([]byte(tc.in), DefaultDetachKeys), "%q", tc.in)
		}
	}
}

// A zoomed program writes to the real terminal directly; whatever modes it
// left on are put back when the zoom ends, and the alternate screen is
// erased before it is left (tmux copies rows of a resized alternate screen
// onto the main screen).
func TestZoomEndLeavesTheTerminalAsFound(t *testing.T) {
	t.Parallel()
	s := runningShell(t, "zoom-modes", 0, 0)

	inW, out, done := zoomInto(t, s)

	// vim's keys, htop's mouse, a shell's bracketed paste, claude's kitty
	// flags and hidden cursor, and a scroll region.
	_, err := inW.Write([]byte(`printf '\033[?1h\033=\033[?1000h\033[?1006h\033[?2004h\033[>1u\033[>4;2m\033[?25l\033[2 q\033[4h\033[?7l'; echo modes-$((2+3))` + "\r"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "modes-5") }, waitFor, tick)
	detachZoom(t, inW, done)
	var modes termmodes.Tracker
	_, _ = modes.Write([]byte(out.String()))
	require.Empty(t, modes.Set(), "modes left on after the zoom")
	require.True(t, strings.HasSuffix(out.String(), "\x1b[2J\x1b[?1049l"), "%q", out.String()[max(len(out.String())-80, 0):])
}

// A zoomed program that switches to the alternate screen and back (vim,
// less) never switches the real terminal: the zoom already runs on its
// alternate screen, and leaving it drew the rest of the zoom over the
// screen of the shell that started alice. Each switch is repainted from
// the emulator instead, so the terminal shows what the session shows.
func TestZoomKeepsTheProgramsScreenSwitchesInside(t *testing.T) {
	t.Parallel()
	s := runningShell(t, "zoom-alt", 60, 12)

	inW, out, done := zoomInto(t, s)

	_, err := inW.Write([]byte(`echo on-main-$((1+1)); printf '\033[?1049hALT-\033[31mSCREEN'; sleep 0.2; printf '\033[?1049l'; echo back-$((2+2))` + "\r"))
	require.NoError(t, err)
	// The next prompt is the last output until more input: wait for it,
	// so the terminal and the emulator have the same bytes.
	// (The stream is read as a terminal would: a repaint may fall between
	// "back-4" and the prompt, depending on how the pty's reads split.)
	require.Eventually(t, func() bool { return strings.Contains(s.Screen(), "back-4\n$") }, waitFor, tick)
	require.Eventually(t, func() bool {
		e := vt.NewEmulator(60, 12)
		_, _ = e.Write([]byte(out.String()))
		return strings.Contains(e.String(), "back-4\n$")
	}, waitFor, tick)
	detachZoom(t, inW, done)
	stream := out.String()
	require.Equal(t, 1, strings.Count(stream, "\x1b[?1049h"), "only the zoom enters the alternate screen")
	require.Equal(t, 1, strings.Count(stream, "\x1b[?1049l"), "only the zoom's end leaves it")
	require.Contains(t, stream, "ALT-\x1b[31mSCREEN", "the program's alternate screen was shown")

	// What the terminal shows before the zoom's end is the session's screen.
	shown := vt.NewEmulator(60, 12)
	_, _ = shown.Write([]byte(strings.TrimSuffix(stream, leaveZoom)))
	require.True(t, shown.IsAltScreen(), "still on the terminal's alternate screen")
	require.Equal(t, s.Screen(), shown.String())
	require.NotContains(t, shown.String(), "ALT-SCREEN")
	require.Contains(t, shown.String(), "on-main-2")
}

// A window resized during a zoom: the session's emulator reflows its
// screen (a long line rewrapped at the new width), and the terminal, whose
// alternate screen does not reflow, is drawn again from it, as tmux redraws
// a pane from its grid. Without the repaint a shell at its prompt kept the
// rows drawn at the old width (black-box report).
func TestZoomRepaintsAfterAResize(t *testing.T) {
	t.Parallel()
	s := runningShell(t, "zoom-resize", 40, 12)
	a, inW, out, done := zoomAttachment(t, s)
	_, err := inW.Write([]byte("printf '%070d' 0; echo END-$((5+5))\r"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return strings.Contains(s.Screen(), "END-10\n$") }, waitFor, tick)

	before := len(out.String())
	a.resized(60, 12)
	// The terminal: the zoom drawn at 40 columns on its alternate screen,
	// which keeps its rows through the resize, then what came after.
	shown := vt.NewEmulator(40, 12)
	_, _ = shown.Write([]byte(out.String()[:before]))
	require.True(t, shown.IsAltScreen())
	shown.Resize(60, 12)
	_, _ = shown.Write([]byte(out.String()[before:]))
	require.Equal(t, s.Screen(), shown.String())
	require.Contains(t, shown.String(), strings.Repeat("0", 60)+"\n"+strings.Repeat("0", 10)+"END-10",
		"the line is wrapped at the new width")
	detachZoom(t, inW, done)
}

// A program that redraws the moment it learns its new size draws into an
// emulator that already has that size: the emulator is resized before the
// pty. The other way round, a full-screen program's redraw after a growth
// was clamped to the old bottom row, and the zoom's repaint then showed it
// there (black-box report: less after two quick resizes). A shell's trap
// runs only after its sleep, so here the redraw seldom wins that race even
// in the old order: this checks where the redraw lands, not the race.
func TestResizeReachesTheEmulatorBeforeTheProgram(t *testing.T) {
	t.Parallel()
	s := runningShell(t, "resize-order", 40, 12)
	script := filepath.Join(t.TempDir(), "redraw.sh")
	require.NoError(t, os.WriteFile(script, []byte(`printf '\033[?1049h'
trap 'set -- $(stty size); printf "\033[2J\033[%d;1HBOTTOM-%d" $1 $1' WINCH
while :; do sleep 0.02; done
`), 0o644))
	_, err := s.Write([]byte("sh " + script + "\r"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return s.term.IsAltScreen() }, waitFor, tick)
	for _, rows := range []int{20, 14, 24} {
		s.Resize(40, rows)
		want := fmt.Sprintf("BOTTOM-%d", rows)
		require.Eventually(t, func() bool { return strings.Contains(s.Screen(), want) }, waitFor, tick)
		lines := strings.Split(s.Screen(), "\n")
		require.Len(t, lines, rows)
		require.Contains(t, lines[rows-1], want, "drawn on the new bottom row")
	}
}

func TestZoomFilterDropsScreenSwitches(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		in       []string
		out      string
		switched bool
	}{
		{"plain", []string{"hello \x1b[31mred\x1b[m"}, "hello \x1b[31mred\x1b[m", false},
		{"vim start", []string{"\x1b[?1049h\x1b[22;0;0t\x1b[?1h\x1b="}, "\x1b[22;0;0t\x1b[?1h\x1b=", true},
		{"split", []string{"a\x1b", "[?10", "49l", "b"}, "ab", true},
		{"other modes kept", []string{"\x1b[?1;1049;25h"}, "\x1b[?1;25h", true},
		{"old forms", []string{"\x1b[?47hx\x1b[?1047l"}, "x", true},
		{"not a switch", []string{"\x1b[?1004h\x1b[?2004l\x1b[1049h"}, "\x1b[?1004h\x1b[?2004l\x1b[1049h", false},
		{"cut at the very end is held", []string{"x\x1b[?104"}, "x", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			z := &zoomWriter{}
			var got []byte
			sw := false
			for _, p := range tc.in {
				o, s := z.filter([]byte(p))
				got, sw = append(got, o...), sw || s
			}
			require.Equal(t, tc.out, string(got))
			require.Equal(t, tc.switched, sw)
		})
	}
}

// A zoom that starts after the program set its modes gives the real
// terminal those modes: the zoom began with the terminal's defaults, so a
// claude or vim started in the pane and then zoomed got pastes without
// brackets (every line submitted on its own), no mouse, normal cursor
// keys, and the real cursor over its own.
func TestZoomStartsInTheProgramsModes(t *testing.T) {
	t.Parallel()
	s := runningShell(t, "zoom-in-modes", 0, 0)
	require.NoError(t, s.Input([]byte(`printf '\033[?1h\033=\033[?1002h\033[?1006h\033[?1004h\033[?2004h\033[?25l\033[?7l'; echo pre-$((2+5))`+"\r")))
	waitScreen(t, s, "pre-7")

	inW, out, done := zoomInto(t, s)
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "pre-7") }, waitFor, tick)
	_, err := inW.Write([]byte("echo in-zoom-$((4+4))\r"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "in-zoom-8") }, waitFor, tick)
	var modes termmodes.Tracker
	_, _ = modes.Write([]byte(out.String()))
	require.Subset(t, modes.Set(), []string{"?1", "?1002", "?1004", "?1006", "?2004", "?25-", "?7-"}, "the zoom runs in the program's modes: %q", out.String())
	detachZoom(t, inW, done)
	modes = termmodes.Tracker{}
	_, _ = modes.Write([]byte(out.String()))
	require.Empty(t, modes.Set(), "and none is left after it")
}

// zoomInto runs s's full-screen zoom on a pipe (the keys a person types,
// inW) and a buffer (what the real terminal would get, out, stdout and
// stderr); done reports the zoom's end.
func zoomInto(t *testing.T, s *Session) (inW *os.File, out *syncBuf, done <-chan error) {
	t.Helper()
	_, inW, out, done = zoomAttachment(t, s)
	return inW, out, done
}

// zoomAttachment is zoomInto with the attachment itself; prep, if any,
// runs on the attachment before it starts.
func zoomAttachment(t *testing.T, s *Session, prep ...func(*Attachment)) (a *Attachment, inW *os.File, out *syncBuf, done <-chan error) {
	t.Helper()
	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { _ = inR.Close(); _ = inW.Close() })
	out = &syncBuf{}
	a = s.Attach()
	a.SetStdin(inR)
	a.SetStdout(out)
	a.SetStderr(out)
	for _, f := range prep {
		f(a)
	}
	ended := make(chan error, 1)
	go func() { ended <- a.Run() }()
	return a, inW, out, ended
}

// A zoom that starts inside a scroll region the program set gives the
// real terminal that region (and origin mode): without it the program's
// next line feed at the region's bottom scrolled the whole real screen,
// rows above the region included. What the real terminal shows must equal
// the session's own screen after lines scroll through the region.
func TestZoomKeepsTheProgramsScrollRegion(t *testing.T) {
	t.Parallel()
	for _, origin := range []bool{false, true} {
		t.Run(map[bool]string{false: "absolute", true: "origin mode"}[origin], func(t *testing.T) {
			t.Parallel()
			s := runningShell(t, "zoom-region", 60, 12)
			set := `printf 'TOP-ROW\n\033[3;8r\033[8;1H'`
			if origin {
				set = `printf 'TOP-ROW\n\033[3;8r\033[?6h\033[6;1H'`
			}
			require.NoError(t, s.Input([]byte(set+"; echo pre-$((2+5))\r")))
			waitScreen(t, s, "pre-7")

			inW, out, done := zoomInto(t, s)
			require.Eventually(t, func() bool { return strings.Contains(out.String(), "pre-7") }, waitFor, tick)
			_, err := inW.Write([]byte("for i in 1 2 3 4 5 6 7 8 9; do echo line-$i; done; echo end-$((5*5))\r"))
			require.NoError(t, err)
			waitScreen(t, s, "end-25")
			require.Eventually(t, func() bool { return strings.Contains(out.String(), "end-25") }, waitFor, tick)
			real := vt.NewEmulator(60, 12)
			_, _ = real.Write([]byte(out.String()))
			require.Equal(t, s.Screen(), real.String(), "the real terminal shows the session's screen")
			require.Contains(t, s.Screen(), "TOP-ROW", "the row above the region stays")

			detachZoom(t, inW, done)
		})
	}
}

// runningShell starts a shell session in a new workspace tag of a fresh
// manager, of cols×rows (0: the default size), and waits until it runs.
func runningShell(t *testing.T, tag string, cols, rows int) *Session {
	t.Helper()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, tag, "shell-only")
	var s *Session
	var err error
	if cols > 0 {
		s, err = m.StartSessionSize(w.ID, AgentShell, cols, rows)
	} else {
		s, err = m.StartSession(w.ID, AgentShell)
	}
	require.NoError(t, err)
	waitState(t, s, StateRunning)
	return s
}

// detachZoom types the detach key (ctrl+q) into a zoom and waits for it
// to end without an error.
func detachZoom(t *testing.T, inW *os.File, done <-chan error) {
	t.Helper()
	_, err := inW.Write([]byte{0x11})
	require.NoError(t, err)
	waitZoomEnd(t, done)
}

// waitZoomEnd waits for a zoom the detach key ended to end without error.
func waitZoomEnd(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(waitFor):
		t.Fatal("detach key did not end the attachment")
	}
}

// Input read after the detach key in the same read (keys typed right after
// ctrl+q, a paste) is the TUI's: the attachment keeps it for the TUI to
// handle instead of dropping it, and the session gets only what came
// before the key.
func TestZoomKeepsTheInputAfterTheDetachKey(t *testing.T) {
	t.Parallel()
	s := runningShell(t, "zoom-leftover", 0, 0)
	a, inW, out, done := zoomAttachment(t, s)
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "\x1b[?1049h") }, waitFor, tick)
	_, err := inW.Write([]byte("echo before-$((3*3))\r\x11\x1b1abc"))
	require.NoError(t, err)
	waitZoomEnd(t, done)
	require.Equal(t, "\x1b1abc", string(a.Leftover()))
	waitScreen(t, s, "before-9")
	require.NotContains(t, s.Screen(), "abc")
}

// Keys the TUI got after it started a zoom and before the zoom took the
// terminal are the zoom's, before anything it reads: a detach key among
// them ends it at once, the keys before it reach the session, those after
// it are the TUI's (a burst "z a b ctrl+q" left the zoom open, or gave
// keys to the workspace list).
func TestZoomTakesTheKeysTypedBeforeItStarted(t *testing.T) {
	t.Parallel()
	s := runningShell(t, "zoom-queued", 0, 0)
	a, _, _, done := zoomAttachment(t, s, func(a *Attachment) {
		for _, r := range "echo queued-$((6*7))" {
			a.QueueKey(KeyPress{Code: r, Text: string(r)})
		}
		a.QueueKey(KeyPress{Code: uv.KeyEnter})
		a.QueueKey(KeyPress{Code: 'q', Mod: uv.ModCtrl})
		a.QueuePaste("after")
	})
	waitZoomEnd(t, done) // nothing was typed on the terminal
	waitScreen(t, s, "queued-42")
	require.Equal(t, "after", string(a.Leftover()))
}
