package provider

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPriceTable(t *testing.T) {
	cases := []struct {
		model string
		u     Usage
		want  string // "" = unknown model
	}{
		{"gpt-4o-mini", Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000}, "0.75"},
		{"gpt-4o-mini-2024-07-18", Usage{InputTokens: 2000, OutputTokens: 500}, "0.0006"},
		{"gpt-4.1-mini", Usage{InputTokens: 1_000_000}, "0.4"},  // the longest prefix wins over gpt-4.1
		{"openai/gpt-4.1", Usage{OutputTokens: 1_000_000}, "8"}, // router-style names
		{"claude-sonnet-4-5", Usage{InputTokens: 1_000_000, CacheRead: 600_000, CacheWrite: 100_000, OutputTokens: 10_000},
			"1.605"}, // (300k×3 + 600k×0.3 + 100k×3.75 + 10k×15) per million
		{"gpt-4o", Usage{InputTokens: 1000, CacheRead: 5000}, "0.00625"}, // cached > input is clamped to zero plain input
		{"m", Usage{InputTokens: 10}, ""},
		{"llama3", Usage{InputTokens: 10}, ""},
	}
	for _, c := range cases {
		p, ok := PriceOf(c.model)
		if c.want == "" {
			require.False(t, ok, c.model)
			continue
		}
		require.True(t, ok, c.model)
		require.Equal(t, c.want, p.Cost(c.u).String(), c.model)
	}
}
