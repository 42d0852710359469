package workspace

import (
	"log/slog"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/stretchr/testify/require"
)

// TestPatchCellsDrawsOnlyWhatItCanDrawExactly: the rows changed since the
// last Frame are copied at the offset given, with the cursor; anything the
// window's renderer must draw itself (another size, another screen, a
// scroll, characters whose width methods may disagree) draws nothing.
func TestPatchCellsDrawsOnlyWhatItCanDrawExactly(t *testing.T) {
	const cols, rows = 20, 6
	cases := []struct {
		name       string
		feed       string
		cols, rows int
		ok         bool
		want       string // row 1 of the frame, from column 2, when ok
	}{
		{"an echo", "\x1b[2;1Hhello", cols, rows, true, "hello"},
		{"styled text and box drawing", "\x1b[2;1H\x1b[31m│é│\x1b[m", cols, rows, true, "│é│"},
		{"symbols an agent's prompt draws", "\x1b[2;1H❯ ● ✻ ⎿ …", cols, rows, true, "❯ ● ✻ ⎿ …"},
		{"an emoji of one code point, wide by both measures", "\x1b[2;1H✅", cols, rows, true, "✅"},
		{"the size differs", "\x1b[2;1Hx", cols + 1, rows, false, ""},
		{"wide characters", "\x1b[2;1H日本x", cols, rows, true, "日本x"},
		{"a wide character over a narrow one and back", "\x1b[2;1Hab\x1b[2;1H日\x1b[2;1Hc ", cols, rows, true, "c "},
		{"a character the measures disagree on", "\x1b[2;1H\U0001F1E6", cols, rows, false, ""},
		{"a cluster", "\x1b[2;1He\u0301", cols, rows, false, ""},
		{"an emoji, wide by both measures", "\x1b[2;1H🙂", cols, rows, true, "🙂"},
		{"a scroll touches every row", strings.Repeat("\r\n", rows+1) + "x", cols, rows, false, ""},
		{"the alternate screen", "\x1b[?1049h", cols, rows, false, ""},
		{"nothing changed", "", cols, rows, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			term := NewTerminal(cols, rows, slog.New(slog.DiscardHandler))
			defer term.Close()
			term.Feed([]byte("$ "))
			term.Frame()
			term.Feed([]byte(c.feed))
			frame := uv.NewRenderBuffer(cols+4, rows+2)
			x, y, vis, ok := term.PatchCells(frame, 2, 1, c.cols, c.rows)
			require.Equal(t, c.ok, ok)
			if !ok {
				require.Zero(t, frame.TouchedLines(), "nothing is drawn when it gives up")
				return
			}
			_, fx, fy, fvis := term.Frame()
			require.Equal(t, [3]any{fx, fy, fvis}, [3]any{x, y, vis}, "the cursor is the screen's")
			var got strings.Builder
			for col, n := 2, 0; n < len([]rune(c.want)); n++ {
				cell := frame.CellAt(col, 2)
				got.WriteString(cell.Content)
				col += max(cell.Width, 1)
			}
			require.Equal(t, c.want, got.String())
			if c.want != "" {
				require.Equal(t, 1, frame.TouchedLines(), "only the changed row is drawn")
			}
		})
	}
}
