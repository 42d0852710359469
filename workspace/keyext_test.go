package workspace

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/stretchr/testify/require"
)

// Keys for a program that asked for the kitty protocol's disambiguation
// or xterm's modifyOtherKeys, against the two specifications; a key both
// leave as legacy is encoded by EncodeKey.
func TestEncodeExtended(t *testing.T) {
	t.Parallel()
	shiftEnter := KeyPress{Code: uv.KeyEnter, Mod: uv.ModShift}
	ctrlEnter := KeyPress{Code: uv.KeyEnter, Mod: uv.ModCtrl}
	ctrlA := KeyPress{Code: 'a', Mod: uv.ModCtrl}
	ctrlShiftA := KeyPress{Code: 'a', ShiftedCode: 'A', Mod: uv.ModCtrl | uv.ModShift}
	altX := KeyPress{Code: 'x', Mod: uv.ModAlt}
	shiftA := KeyPress{Code: 'a', ShiftedCode: 'A', Text: "A", Mod: uv.ModShift}
	plainA := KeyPress{Code: 'a', Text: "a"}
	esc := KeyPress{Code: uv.KeyEscape}
	enter := KeyPress{Code: uv.KeyEnter}
	shiftTab := KeyPress{Code: uv.KeyTab, Mod: uv.ModShift}
	up := KeyPress{Code: uv.KeyUp, Mod: uv.ModCtrl}
	ctrlSpace := KeyPress{Code: uv.KeySpace, Mod: uv.ModCtrl}
	for _, tc := range []struct {
		name       string
		k          KeyPress
		kitty, mok int
		want       string // "" = legacy
	}{
		{"no mode asked", shiftEnter, 0, 0, ""},
		{"kitty shift+enter", shiftEnter, 1, 0, "\x1b[13;2u"},
		{"kitty ctrl+enter", ctrlEnter, 1, 0, "\x1b[13;5u"},
		{"kitty ctrl+a", ctrlA, 1, 0, "\x1b[97;5u"},
		{"kitty ctrl+shift+a (the unshifted key)", ctrlShiftA, 1, 0, "\x1b[97;6u"},
		{"kitty alt+x", altX, 1, 0, "\x1b[120;3u"},
		{"kitty esc", esc, 1, 0, "\x1b[27u"},
		{"kitty shift+tab", shiftTab, 1, 0, "\x1b[9;2u"},
		{"kitty ctrl+space", ctrlSpace, 1, 0, "\x1b[32;5u"},
		{"kitty shifted text is text", shiftA, 1, 0, ""},
		{"kitty plain text", plainA, 1, 0, ""},
		{"kitty plain enter", enter, 1, 0, ""},
		{"kitty arrows stay legacy", up, 1, 0, ""},
		{"kitty flags without disambiguate", shiftEnter, 8, 0, ""},
		{"kitty wins over modifyOtherKeys", ctrlA, 1, 2, "\x1b[97;5u"},
		{"mok2 shift+enter", shiftEnter, 0, 2, "\x1b[27;2;13~"},
		{"mok2 ctrl+a keeps its control byte, as tmux sends it", ctrlA, 0, 2, ""},
		{"mok2 ctrl+alt+a is ESC ^A", KeyPress{Code: 'a', Mod: uv.ModAlt | uv.ModCtrl}, 0, 2, ""},
		{"mok2 shift+tab stays CSI Z", shiftTab, 0, 2, ""},
		{"mok2 ctrl+tab", KeyPress{Code: uv.KeyTab, Mod: uv.ModCtrl}, 0, 2, "\x1b[27;5;9~"},
		{"mok2 ctrl+1 has no control byte", KeyPress{Code: '1', Mod: uv.ModCtrl}, 0, 2, "\x1b[27;5;49~"},
		{"mok2 ctrl+shift+a (the shifted character)", ctrlShiftA, 0, 2, "\x1b[27;6;65~"},
		{"mok2 alt+x keeps ESC x, as tmux sends it", altX, 0, 2, ""},
		{"mok2 alt+shift+x keeps ESC X", KeyPress{Code: 'x', ShiftedCode: 'X', Mod: uv.ModAlt | uv.ModShift}, 0, 2, ""},
		{"mok2 alt+enter keeps ESC CR", KeyPress{Code: uv.KeyEnter, Mod: uv.ModAlt}, 0, 2, ""},
		{"mok2 ctrl+alt+enter", KeyPress{Code: uv.KeyEnter, Mod: uv.ModAlt | uv.ModCtrl}, 0, 2, "\x1b[27;7;13~"},
		{"mok2 esc", esc, 0, 2, ""},
		{"mok2 shifted text", shiftA, 0, 2, ""},
		{"mok1 ctrl+a keeps its control byte", ctrlA, 0, 1, ""},
		{"mok1 alt+x keeps ESC x", altX, 0, 1, ""},
		{"mok1 ctrl+shift+a", ctrlShiftA, 0, 1, "\x1b[27;6;65~"},
		{"mok1 ctrl+enter", ctrlEnter, 0, 1, "\x1b[27;5;13~"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := encodeExtended(tc.k, tc.kitty, tc.mok)
			if tc.want == "" {
				require.False(t, ok, "legacy expected, got %q", got)
				return
			}
			require.True(t, ok)
			require.Equal(t, tc.want, string(got))
		})
	}
}

// The attached pane sends keys the way the program asked for them, and
// the legacy way again once it takes the request back.
func TestSendKeyFollowsTheProgramsKeyboardModes(t *testing.T) {
	t.Parallel()
	term := NewTerminal(40, 10, slog.New(slog.DiscardHandler))
	defer term.Close()
	out := &syncBuf{}
	term.SetOutput(out)
	shiftEnter := KeyPress{Code: uv.KeyEnter, Mod: uv.ModShift}
	send := func(want string) {
		t.Helper()
		n := len(out.String())
		term.SendKey(shiftEnter)
		require.Eventually(t, func() bool { return len(out.String()) > n }, 30*time.Second, tick)
		require.Equal(t, want, out.String()[n:])
	}
	send("\r")
	term.Feed([]byte("\x1b[>1u"))
	send("\x1b[13;2u")
	term.Feed([]byte("\x1b[<u\x1b[>4;2m"))
	send("\x1b[27;2;13~")
	term.Feed([]byte("\x1b[>4m"))
	send("\r")
	require.False(t, strings.Contains(out.String(), "\n"))
}
