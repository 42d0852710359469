package market

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

// The ticket's number fields are judged by the order model's parser and
// checks (trading.ParsePositive, trading.Order.Validate), with the form's
// field named and the text quoted exactly as typed. Plain decimal
// notation only, as placeOrder accepts: no sign but an optional "+", no
// exponent, no comma or "_" separators.
func TestOrderTicketFieldValidation(t *testing.T) {
	t.Parallel()
	notNumber := func(field, typed string) string {
		return field + " must be a positive decimal number, got \"" + typed + "\""
	}
	refused := func(field, typed, why string) string { return field + " \"" + typed + "\" refused: " + why }
	const noExp = "write the number out in plain decimal notation (no exponent)"
	for _, tc := range []struct {
		name, qty, limit string // limit: a limit order's price
		lmt              bool
		want             string // the refusal; "" accepted
		wantQty          string // the parsed quantity, when accepted
	}{
		// what the tester typed: each was silently rewritten to a valid number
		{name: "minus", qty: "-1", want: notNumber("quantity", "-1")},
		{name: "decimal comma", qty: "1,5", want: notNumber("quantity", "1,5")},
		{name: "exponent", qty: "1e9", want: refused("quantity", "1e9", noExp)},
		{name: "two dots", qty: "1.2.3", want: notNumber("quantity", "1.2.3")},
		{name: "negative exponent", qty: "1e-12", want: refused("quantity", "1e-12", noExp)},
		{name: "pasted mix", qty: "-1,5e3", want: refused("quantity", "-1,5e3", noExp)},
		{name: "zero", qty: "0", want: notNumber("quantity", "0")},
		{name: "zero with places", qty: "0.000", want: notNumber("quantity", "0.000")},
		{name: "empty", qty: "", want: notNumber("quantity", "")},
		{name: "blank", qty: "  ", want: notNumber("quantity", "  ")},
		{name: "underscore separator", qty: "1_000", want: notNumber("quantity", "1_000")},
		{name: "space separator", qty: "1 000", want: notNumber("quantity", "1 000")},
		{name: "letter", qty: "1x0", want: notNumber("quantity", "1x0")},
		{name: "fullwidth digit", qty: "１", want: notNumber("quantity", "１")},
		{name: "lone dot", qty: ".", want: notNumber("quantity", ".")},
		{name: "too many places", qty: "0.00000000001", want: refused("quantity", "0.00000000001", "0.00000000001 has 11 decimal places (at most 10)")},
		{name: "too many digits", qty: "1234567890.123456789", want: refused("quantity", "1234567890.123456789", "1234567890.123456789 has 19 significant digits (at most 18)")},
		{name: "too long", qty: strings.Repeat("1", 33), want: refused("quantity", strings.Repeat("1", 33), "a number of 33 characters is too long (at most 32)")},
		{name: "above the ceiling", qty: "1000000000001", want: refused("quantity", "1000000000001", "1000000000001 is above the limit 1000000000000")},
		{name: "negative limit", qty: "1", limit: "-5", want: notNumber("limit price", "-5")},
		{name: "limit with comma", qty: "1", limit: "185,50", want: notNumber("limit price", "185,50")},
		{name: "limit exponent", qty: "1", limit: "1e3", want: refused("limit price", "1e3", noExp)},
		{name: "empty limit", qty: "1", lmt: true, want: notNumber("limit price", "")},
		{name: "limit above the ceiling", qty: "1", limit: "2000000000000", want: refused("limit price", "2000000000000", "2000000000000 is above the limit 1000000000000")},
		{name: "quantity first", qty: "-1", limit: "-5", want: notNumber("quantity", "-1")},

		{name: "one", qty: "1", wantQty: "1"},
		{name: "half", qty: "0.5", wantQty: "0.5"},
		{name: "leading dot", qty: ".5", wantQty: "0.5"},
		{name: "trailing dot", qty: "5.", wantQty: "5"},
		{name: "plus sign", qty: "+1", wantQty: "1"},
		{name: "trailing zeros", qty: "1.50", wantQty: "1.5"},
		{name: "surrounding spaces", qty: " 2 ", wantQty: "2"},
		{name: "ten places", qty: "0.0000000001", wantQty: "0.0000000001"},
		{name: "the ceiling", qty: "1000000000000", wantQty: "1000000000000"},
		{name: "limit order", qty: "10", limit: "185.5", wantQty: "10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newOrderForm("sim-paper", "BTCUSD")
			f.Qty = tc.qty
			if tc.lmt || tc.limit != "" {
				f.otype, f.limit = "LMT", tc.limit
			}
			tk, err := f.ticket()
			if tc.want != "" {
				require.EqualError(t, err, tc.want)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.wantQty, tk.Quantity.String())
			if f.otype == "LMT" {
				require.True(t, tk.Limit.Equal(decimal.RequireFromString(tc.limit)))
			}
		})
	}
}

// Keys and pastes go into a number field as they came; backspace takes
// off one character, whole (not one byte of it).
func TestOrderTicketEditKeepsWhatIsTyped(t *testing.T) {
	t.Parallel()
	f := newOrderForm("sim-paper", "BTCUSD")
	for _, r := range "-1,5e3.2.3x" {
		f.Qty = editText(f.Qty, keyOf(r))
	}
	require.Equal(t, "-1,5e3.2.3x", f.Qty)
	f.Qty = editText("1é", backspace)
	require.Equal(t, "1", f.Qty)
	require.Equal(t, "", editText("", backspace))
	f.Qty = ""
	f.paste("-1,5e3")
	require.Equal(t, "-1,5e3", f.Qty)
}

// A refusal shown after a submit follows the edits: it names what the
// field holds now and goes once the value is valid.
func TestOrderTicketRefusalNeverGoesStale(t *testing.T) {
	t.Parallel()
	f := newOrderForm("sim-paper", "BTCUSD")
	f.Qty = "-1"
	_, err := f.ticket()
	f.err = err.Error()
	f.Qty = editText(f.Qty, keyOf('2'))
	f.recheck()
	require.Equal(t, `quantity must be a positive decimal number, got "-12"`, f.err)
	f.Qty = "12"
	f.recheck()
	require.Empty(t, f.err)
	f.Qty = "1e2"
	f.recheck()
	require.Empty(t, f.err, "no refusal is shown before a submit")
}

// The ticket shows a field's text as it is: control characters as
// escapes (they would act on the terminal), a value wider than the pane
// by its end behind "…", never as a shorter number.
func TestOrderTicketShowsTheFieldAsItIs(t *testing.T) {
	t.Parallel()
	require.Equal(t, "-1,5e3", shown("-1,5e3", 40))
	require.Equal(t, `1\x1b[2J\t`, shown("1\x1b[2J\t", 40))
	require.Equal(t, "…7890", shown("1234567890", 5))
	require.Equal(t, "1234567890", shown("1234567890", 10))
}

func keyOf(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

var backspace = tea.KeyPressMsg{Code: tea.KeyBackspace}
