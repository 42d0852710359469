package workspaces

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

func TestFitClusters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain ascii", "plain ascii"},
		{"日本語 é\u0301 🇯🇵 😀 ⏺ ✻", "日本語 é\u0301 🇯🇵 😀 ⏺ ✻"}, // measured alike both ways: kept
		{"👍🏽Z", "👍Z"},                                    // skin tone modifier
		{"a👨\u200d👩\u200d👧b", "a👨b"},                     // ZWJ family
		{"\x1b[31m👩🏿\u200d🔬\x1b[m|", "\x1b[31m👩\x1b[m|"}, // escape sequences kept byte for byte
		{"\x1b]8;;http://x/👍🏽\x07link\x1b]8;;\x07", "\x1b]8;;http://x/👍🏽\x07link\x1b]8;;\x07"},
	} {
		got := fitClusters(tc.in)
		require.Equal(t, tc.want, got, "%q", tc.in)
		require.Equal(t, ansi.StringWidth(tc.in), ansi.StringWidth(got), "%q keeps its cells", tc.in)
		require.Equal(t, ansi.StringWidth(got), ansi.StringWidthWc(got), "%q measures alike both ways", got)
	}
	// Narrower rune by rune (an emoji presentation selector): kept, as a
	// row that comes out short leaves the frame whole.
	require.Equal(t, "⚠\ufe0f ok", fitClusters("⚠\ufe0f ok"))
}
