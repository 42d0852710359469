package trading

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
)

func TestFormatMoney(t *testing.T) {
	t.Parallel()
	d := decimal.RequireFromString
	for _, tc := range []struct{ in, want string }{
		{"2060.1", "2,060.10"},
		{"0", "0.00"},
		{"999.999", "1,000.00"},
		{"1234567.891", "1,234,567.89"},
		{"-97939.9", "-97,939.90"},
		{"-0.001", "0.00"},
		{"5000", "5,000.00"},
	} {
		assert.Equal(t, tc.want, FormatMoney(d(tc.in)), tc.in)
	}
	assert.Equal(t, "2060.1", RoundMoney(d("2060.095")).String(), "half away from zero")
}

func TestFormatAmount(t *testing.T) {
	t.Parallel()
	d := decimal.RequireFromString
	for _, tc := range []struct{ in, want string }{
		{"1250", "1,250"},
		{"12.5", "12.5"},
		{"0.125", "0.13"},
		{"1234567", "1,234,567"},
		{"-2500.5", "-2,500.5"},
		{"-0.001", "0"},
	} {
		assert.Equal(t, tc.want, FormatAmount(d(tc.in)), tc.in)
	}
}
