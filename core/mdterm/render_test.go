package mdterm

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plain renders and strips colours, trailing spaces and the outer blank
// lines, keeping the layout.
func plain(md string, width int) string {
	out := ansi.Strip(Render(md, Options{Width: width}))
	lines := strings.Split(strings.Trim(out, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func TestRenderLayout(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"paragraph wraps at the width", "one two three four five six seven", "  one two three four\n  five six seven"},
		{"soft break joins lines", "one\ntwo", "  one two"},
		{"hard break keeps the line", "one  \ntwo", "  one\n  two"},
		{"headings", "# Top\n\n## Sub", "  Top\n\n  ## Sub"},
		{"emphasis markers disappear", "**bold** *it* ~~old~~ `x<y`", "  bold it old  x<y"},
		{"unclosed markers stay", "**bold and *it", "  **bold and *it"},
		{"bullets with hanging indent", "- alpha beta gamma delta\n- b", "  • alpha beta gamma\n    delta\n  • b"},
		{"ordered list keeps its numbers", "3. c\n4. d", "  3. c\n  4. d"},
		{"nested list", "- a\n  - b", "  • a\n    • b"},
		{"task list", "- [x] done\n- [ ] todo", "  • [✓] done\n  • [ ] todo"},
		{"quote", "> careful now", "  │ careful now"},
		{"code block is not wrapped or parsed", "```\n**x** = 1\n```", "  **x** = 1"},
		{"long code line is cut", "```\n" + strings.Repeat("x", 30) + "\n```", "  " + strings.Repeat("x", 17) + "…"},
		{"link shows its address", "[docs](https://x.test)", "  docs\n  https://x.test"},
		{"autolink", "<https://x.test>", "  https://x.test"},
		{"image", "![chart](c.png)", "  Image: chart →\n  c.png"},
		{"rule", "a\n\n---\n\nb", "  a\n\n  ──────────────────\n\n  b"},
		{"entities and escapes", `AT&amp;T \*x\*`, "  AT&T *x*"},
		{"table", "| A | B |\n|---|--:|\n| x | 10 |", "  ╭───┬────╮\n  │ A │  B │\n  ├───┼────┤\n  │ x │ 10 │\n  ╰───┴────╯"},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, plain(c.in, 20))
		})
	}
}

func TestRenderStylesNestWithoutResetting(t *testing.T) {
	t.Parallel()
	out := Render("**bold *both* bold**", Options{Width: 80})
	// "bold " is bold; "both" is bold and italic; the last " bold" is
	// still bold after the italic run ended.
	require.Contains(t, out, "\x1b[1mbold \x1b[m")
	require.Contains(t, out, "\x1b[1;3mboth\x1b[m")
	require.Contains(t, out, "\x1b[1m bold\x1b[m")
	require.NotEqual(t, Render("`x`", Options{}), Render("`x`", Options{Light: true}), "light and dark palettes differ")
}

func TestRenderNeverExceedsTheWidth(t *testing.T) {
	t.Parallel()
	md := "# A heading that is long enough to wrap\n\nSome *styled* text with a `code span` and **bold words** in it, " +
		"long enough to wrap several times.\n\n- a list item that wraps as well, with [a link](https://example.com/a/long/path)\n  - nested\n\n" +
		"> a quote that also wraps around the width\n\n| Symbol | Quantity | Note |\n|---|---|---|\n| AAPL | 10 | a long note that must wrap inside the table |\n"
	for _, w := range []int{20, 40, 80} {
		for _, l := range strings.Split(Render(md, Options{Width: w}), "\n") {
			require.LessOrEqual(t, ansi.StringWidth(l), w, "width %d: %q", w, ansi.Strip(l))
		}
	}
}
