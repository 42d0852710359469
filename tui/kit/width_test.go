package kit

import (
	"math/rand/v2"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

func TestWidthMatchesStringWidth(t *testing.T) {
	t.Parallel()
	cases := []string{
		"", "plain", "\x1b[1;32mgreen\x1b[m", "\x1b]8;;https://x.y\x1b\\link\x1b]8;;\x1b\\",
		"\x1b]0;title\x07after", "tab\there", "日本語", "🙂 smile", "e\u0301", "\x1b[", "\x1b]8;;open",
		"\x1b7saved", "\x1b[38:2::1:2:3mcolon", "del\x7f", "\x1b[?25h", "a\x1bb",
	}
	for _, s := range cases {
		require.Equal(t, ansi.StringWidth(s), Width(s), "%q", s)
	}
	// Random strings of printable ASCII, controls, escape sequences and
	// some non-ASCII text.
	parts := []string{"a", "Z", " ", "~", "\x1b[", "m", "1;31", "\x1b]8;;u\x1b\\", "\x07", "\x1b", "\\", "]", "é", "日", "\t", "\r", "\x00", "?", "0", ";", ":"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		s := ""
		for n := rng.IntN(12); n > 0; n-- {
			s += parts[rng.IntN(len(parts))]
		}
		require.Equal(t, ansi.StringWidth(s), Width(s), "%q", s)
	}
}

func BenchmarkWidth(b *testing.B) {
	line := "\x1b[32m-rw-r--r--\x1b[m 1 alice staff   1000 Nov 25 18:00 \x1b[1;34mfile-00.txt\x1b[m" + "                                             "
	b.Run("kit.Width", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Width(line)
		}
	})
	b.Run("ansi.StringWidth", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			ansi.StringWidth(line)
		}
	})
}

// Cell pads and cuts by display width: wide runes count two columns.
func TestCellIsExactDisplayWidth(t *testing.T) {
	for _, s := range []string{"", "abc", "日本 🚀", "a-very-long-profile-name", "深度モデル🚀x", "two\nlines"} {
		for _, w := range []int{1, 5, 8, 14} {
			if got := ansi.StringWidth(Cell(s, w)); got != w {
				t.Errorf("Cell(%q, %d) is %d columns wide: %q", s, w, got, Cell(s, w))
			}
		}
	}
	if got := Cell("日本語テキスト", 7); got != "日本語…" {
		t.Errorf("Cell cut = %q", got)
	}
}
