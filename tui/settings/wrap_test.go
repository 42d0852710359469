package settings

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// Wrapped rows never pass the width, keep every word, and never start
// with a lone comma (ansi.Wrap's "," breakpoint let "cooldown," run one
// cell past the width and the hard wrap then left "," on its own row).
func TestWrapIndentStaysInsideTheWidth(t *testing.T) {
	t.Parallel()
	msg := `✗ config /tmp/bbui/home/config/accounts.json: key "[0].guards[0].type": unknown guard type "max-order-valu" (did you mean "max-order-value"?); known: cooldown, daily-loss, max-order-value, max-position-size, symbol-whitelist`
	plain := func(s ...string) string { return strings.Join(s, "") }
	for _, tc := range []struct{ indent, w int }{{0, 56}, {0, 78}, {19, 58}, {19, 78}, {4, 30}} {
		out := wrapIndent(plain, msg, tc.indent, tc.w)
		for _, row := range strings.Split(out, "\n") {
			require.LessOrEqual(t, ansi.StringWidth(row), tc.w, "%+v: %q", tc, row)
			require.False(t, strings.HasPrefix(strings.TrimSpace(row), ","), "%+v: a row starts with a comma: %q", tc, row)
		}
		squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
		require.Equal(t, squash(msg), squash(out), "%+v: every character kept", tc)
	}
}
