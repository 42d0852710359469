package workspace

import (
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The keyboard modes a program sets are tracked as the kitty protocol and
// xterm define them, per screen, and a zoom gives the real terminal the
// shown screen's.
func TestKeyModesFollowTheProgram(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, feed, zoom string
	}{
		{"nothing asked", "hello", ""},
		{"kitty push", "\x1b[>1u", "\x1b[>1u"},
		{"push twice, pop one", "\x1b[>1u\x1b[>3u\x1b[<u", "\x1b[>1u"},
		{"pop past the bottom", "\x1b[>1u\x1b[<5u", ""},
		{"set replaces", "\x1b[>1u\x1b[=8u", "\x1b[>8u"},
		{"set bits", "\x1b[>1u\x1b[=4;2u", "\x1b[>5u"},
		{"clear bits", "\x1b[>7u\x1b[=2;3u", "\x1b[>5u"},
		{"set without a push", "\x1b[=2u", "\x1b[>2u"},
		{"alternate screen has its own stack", "\x1b[>1u\x1b[?1049h", ""},
		{"alternate screen's flags", "\x1b[>1u\x1b[?1049h\x1b[>4u", "\x1b[>4u"},
		{"main screen's flags again after it", "\x1b[>1u\x1b[?1049h\x1b[>4u\x1b[?1049l", "\x1b[>1u"},
		{"modifyOtherKeys", "\x1b[>4;2m", "\x1b[>4;2m"},
		{"modifyOtherKeys reset", "\x1b[>4;2m\x1b[>4m", ""},
		{"both", "\x1b[>4;1m\x1b[>3u", "\x1b[>4;1m\x1b[>3u"},
		{"RIS resets them", "\x1b[>4;2m\x1b[>3u\x1bc", ""},
		{"other CSI u (restore cursor) is not a mode", "\x1b[s\x1b[u", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term := NewTerminal(80, 24, slog.New(slog.NewTextHandler(io.Discard, nil)))
			defer term.Close()
			term.Feed([]byte(tc.feed))
			term.mu.Lock()
			got := term.keys.zoom(term.emu.IsAltScreen())
			term.mu.Unlock()
			require.Equal(t, tc.zoom, got)
			if tc.zoom != "" {
				require.True(t, strings.HasSuffix(term.zoomModes(), tc.zoom), "zoomModes ends with them: %q", term.zoomModes())
			}
		})
	}
}

// A stack a program keeps pushing onto keeps its newest entries.
func TestKittyStackIsBounded(t *testing.T) {
	t.Parallel()
	var k keyModes
	for i := 1; i <= kittyStackMax+5; i++ {
		k.push(false, i)
	}
	require.Len(t, k.kitty[0], kittyStackMax)
	require.Equal(t, kittyStackMax+5, k.flags(false))
	k.pop(false, kittyStackMax-1)
	require.Equal(t, 6, k.flags(false), "the oldest five were dropped")
}

// A program that asked for kitty keyboard flags and modifyOtherKeys in the
// pane gets them from the real terminal when it is zoomed (claude's
// shift+enter), and the zoom's end takes them back.
func TestZoomCarriesKeyboardModes(t *testing.T) {
	t.Parallel()
	s := runningShell(t, "zoom-keys", 0, 0)
	require.NoError(t, s.Input([]byte(`printf '\033[>4;2m\033[>1u'; echo pre-$((3+4))`+"\r")))
	waitScreen(t, s, "pre-7")

	inW, out, done := zoomInto(t, s)
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "pre-7") }, waitFor, tick)
	require.Eventually(t, func() bool {
		o := out.String()
		return strings.Contains(o, "\x1b[>4;2m") && strings.Contains(o, "\x1b[>1u")
	}, waitFor, tick, "the zoom gives the real terminal the program's keyboard modes: %q", out.String())
	detachZoom(t, inW, done)
	o := out.String()
	require.Greater(t, strings.LastIndex(o, "\x1b[>4m\x1b[<99u"), strings.LastIndex(o, "\x1b[>1u"), "the zoom's end resets them")
}
