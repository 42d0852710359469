package trading

import (
	"strings"

	"github.com/shopspring/decimal"
)

// MoneyPlaces is how many decimals an amount of money shows and is
// estimated to (cents).
const MoneyPlaces = 2

// RoundMoney rounds an amount to MoneyPlaces, half away from zero: what an
// estimate shows is what later arithmetic on it uses.
func RoundMoney(d decimal.Decimal) decimal.Decimal { return d.Round(MoneyPlaces) }

// FormatMoney renders an amount with thousands separators and exactly
// MoneyPlaces decimals ("2,060.10"). It is the one money formatter of the
// approval evidence and the guards' verdicts.
func FormatMoney(d decimal.Decimal) string { return groupThousands(d.StringFixed(MoneyPlaces)) }

// FormatAmount renders a quantity (shares, contracts) with thousands
// separators and at most MoneyPlaces decimals ("1,250", "12.5").
func FormatAmount(d decimal.Decimal) string { return groupThousands(d.Round(MoneyPlaces).String()) }

// groupThousands puts separators into a decimal string's integer part; a
// value that shows as zero carries no minus sign.
func groupThousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var out strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			out.WriteByte(',')
		}
		out.WriteRune(r)
	}
	r := out.String()
	if hasFrac {
		r += "." + frac
	}
	if neg && strings.Trim(r, "0.,") != "" {
		r = "-" + r
	}
	return r
}
