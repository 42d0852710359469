package provider

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Price is a model's list price in US dollars per million tokens:
// uncached input, output, and input read from the prompt cache. Cache
// writes are priced at CacheWrite (Anthropic: 1.25 × input).
type Price struct {
	Input, Output, CacheRead, CacheWrite decimal.Decimal
}

// priceRow is one entry of the table: the longest matching model-name
// prefix wins ("gpt-4.1-mini" before "gpt-4.1").
type priceRow struct {
	prefix                   string
	input, output, cacheRead string
	cacheWrite               string
}

// priceTable holds published list prices (USD per 1M tokens) of the
// models alice's backends name by default. A model not in it has no known
// price and its cost is reported as unknown, never guessed.
func priceTable() []priceRow {
	return []priceRow{
		// Anthropic: cache reads 0.1 × input, 5-minute cache writes 1.25 × input.
		{"claude-opus-4-5", "5", "25", "0.5", "6.25"},
		{"claude-opus-4", "15", "75", "1.5", "18.75"},
		{"claude-sonnet-4", "3", "15", "0.3", "3.75"},
		{"claude-3-7-sonnet", "3", "15", "0.3", "3.75"},
		{"claude-3-5-sonnet", "3", "15", "0.3", "3.75"},
		{"claude-haiku-4-5", "1", "5", "0.1", "1.25"},
		{"claude-3-5-haiku", "0.8", "4", "0.08", "1"},
		// OpenAI: cached input as published per model.
		{"gpt-5-nano", "0.05", "0.4", "0.005", ""},
		{"gpt-5-mini", "0.25", "2", "0.025", ""},
		{"gpt-5", "1.25", "10", "0.125", ""},
		{"gpt-4.1-nano", "0.1", "0.4", "0.025", ""},
		{"gpt-4.1-mini", "0.4", "1.6", "0.1", ""},
		{"gpt-4.1", "2", "8", "0.5", ""},
		{"gpt-4o-mini", "0.15", "0.6", "0.075", ""},
		{"gpt-4o", "2.5", "10", "1.25", ""},
		{"o4-mini", "1.1", "4.4", "0.275", ""},
		{"o3", "2", "8", "0.5", ""},
	}
}

// PriceOf looks a model up in the table.
func PriceOf(model string) (Price, bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndex(m, "/"); i >= 0 { // "openai/gpt-4o" on routers
		m = m[i+1:]
	}
	best := -1
	var row priceRow
	for _, r := range priceTable() {
		if strings.HasPrefix(m, r.prefix) && len(r.prefix) > best {
			best, row = len(r.prefix), r
		}
	}
	if best < 0 {
		return Price{}, false
	}
	d := func(s string) decimal.Decimal {
		if s == "" {
			return decimal.Zero
		}
		return decimal.RequireFromString(s)
	}
	p := Price{Input: d(row.input), Output: d(row.output), CacheRead: d(row.cacheRead), CacheWrite: d(row.cacheWrite)}
	if p.CacheWrite.IsZero() {
		p.CacheWrite = p.Input
	}
	return p, true
}

var million = decimal.NewFromInt(1_000_000)

// Cost prices a turn's usage in US dollars.
func (p Price) Cost(u Usage) decimal.Decimal {
	plain := u.InputTokens - u.CacheRead - u.CacheWrite
	if plain < 0 {
		plain = 0
	}
	c := p.Input.Mul(decimal.NewFromInt(plain)).
		Add(p.CacheRead.Mul(decimal.NewFromInt(u.CacheRead))).
		Add(p.CacheWrite.Mul(decimal.NewFromInt(u.CacheWrite))).
		Add(p.Output.Mul(decimal.NewFromInt(u.OutputTokens)))
	return c.Div(million)
}
