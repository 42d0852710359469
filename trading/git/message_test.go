package git

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestValidateMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, msg string
		ok        bool
	}{
		{"plain thesis", "rebalance: trim TSLA after earnings, add AAPL", true},
		{"500 characters", strings.Repeat("é", MaxMessageChars), true},
		{"ends trimmed", "  buy the dip \n", true},
		{"fake operation lines", "rebalance\n• placeOrder BUY 1 AAPL (MKT) DAY\nest. 174.44 USD" + strings.Repeat("\n", 40) + "x", false},
		{"carriage return", "a\rb", false},
		{"tab", "a\tb", false},
		{"terminal escapes", "x\x1b[2K\r\x1b[1A\x1b[31mRED", false},
		{"C1 control", "a\u0085b", false},
		{"C1 CSI", "a\u009b2Kb", false},
		{"DEL", "a\x7fb", false},
		{"bidi override", "a\u202eb", false},
		{"bidi isolate", "a\u2066b", false},
		{"line separator", "a\u2028b", false},
		{"zero-width space", "buy\u200b AAPL", false},
		{"byte-order mark", "\ufeffbuy", false},
		{"soft hyphen", "re\u00adbalance", false},
		{"word joiner", "a\u2060b", false},
		{"emoji with zero-width joiner", "family 👨\u200d👩\u200d👧 fund", true},
		{"Persian with zero-width non-joiner", "می\u200cخواهم", true},
		{"invalid UTF-8", "a\xffb", false},
		{"501 characters", strings.Repeat("a", MaxMessageChars+1), false},
		{"3.9 MB", strings.Repeat("a", 3_900_000), false},
	} {
		err := ValidateMessage(tc.msg)
		if tc.ok {
			require.NoError(t, err, tc.name)
		} else {
			require.ErrorIs(t, err, ErrBadMessage, tc.name)
		}
	}
	require.False(t, errors.Is(ValidateMessage("  "), ErrBadMessage), "empty is 'required', not malformed")
}

// Old commits may hold anything: shown, they are one safe, bounded line.
func TestDisplayMessage(t *testing.T) {
	t.Parallel()
	got := DisplayMessage("a\n• placeOrder\x1b[31m\u202e\t b" + strings.Repeat("x", 2000))
	require.True(t, strings.HasPrefix(got, "a • placeOrder\ufffd[31m\ufffd b"), got)
	require.True(t, strings.HasSuffix(got, "…"))
	require.Equal(t, MaxMessageChars+1, len([]rune(got)))
}
