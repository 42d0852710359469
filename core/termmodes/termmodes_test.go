package termmodes

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTrackerFollowsModes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		in      []string // written in this many pieces
		set     []string
		restore string
	}{
		{"nothing", []string{"hello\r\n"}, nil, ""},
		{"bubbletea start", []string{"\x1b[?1049h\x1b[?25l\x1b[?2004h\x1b[?1002h\x1b[?1006h\x1b[>4;2m\x1b[>1u"},
			[]string{"?25-", "?1002", "?1006", "?1049", "?2004", "kitty", "modifyOtherKeys"},
			"\x1b[<1u\x1b[>4m\x1b[?25h\x1b[?1002l\x1b[?1006l\x1b[?2004l\x1b[2J\x1b[?1049l"},
		{"bubbletea start and exit", []string{"\x1b[?1049h\x1b[?25l\x1b[?2004h\x1b[>4;2m\x1b[>1u", "frame", "\x1b[>4m\x1b[<1u\r\n\x1b[2J\x1b[?1049l\x1b[?25h\x1b[?2004l"},
			nil, ""},
		{"split sequences", []string{"\x1b", "[?10", "00;1006", "h\x1b[", ">1u\x1b", "="},
			[]string{"?1000", "?1006", "keypad", "kitty"},
			"\x1b[<1u\x1b>\x1b[?1000l\x1b[?1006l"},
		{"kitty pushed twice, popped once", []string{"\x1b[>1u\x1b[>3u\x1b[<u"}, []string{"kitty"}, "\x1b[<1u"},
		{"kitty popped past empty", []string{"\x1b[>1u\x1b[<5u"}, nil, ""},
		{"vim", []string{"\x1b[?1049h\x1b[?1h\x1b=\x1b[4h\x1b[2 q", "\x1b[?1l\x1b>\x1b[4l\x1b[0 q\x1b[?1049l"}, nil, ""},
		{"vim killed", []string{"\x1b[?1049h\x1b[?1h\x1b=\x1b[4h\x1b[2 q"},
			[]string{"?1", "?1049", "insert", "keypad", "cursor-shape"},
			"\x1b>\x1b[4l\x1b[0 q\x1b[?1l\x1b[2J\x1b[?1049l"},
		{"modes inside an OSC title are text", []string{"\x1b]0;\x1b[?1000h\x07", "\x1b]2;x[?1000h\x1b\\"}, nil, ""},
		{"autowrap off", []string{"\x1b[?7l"}, []string{"?7-"}, "\x1b[?7h"},
		{"full reset", []string{"\x1b[?1049h\x1b[>1u\x1bc"}, nil, ""},
		{"old alternate screen", []string{"\x1b[?47h"}, []string{"?47"}, "\x1b[2J\x1b[?47l"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var tr Tracker
			for _, p := range tc.in {
				_, _ = tr.Write([]byte(p))
			}
			require.Equal(t, tc.set, tr.Set())
			require.Equal(t, tc.restore, tr.Restore())
			require.Empty(t, tr.Set(), "restored")
		})
	}
}
