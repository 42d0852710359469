package guard

import (
	"testing"

	"github.com/alice-trading/alice/config"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every registered type is described (and nothing else), and each
// described bound is exactly what the factory enforces: the bound itself
// is accepted, one step above it and zero are refused, a required option
// left out is refused.
func TestDescriptionsCoverRegistryAndMatchValidation(t *testing.T) {
	t.Parallel()
	reg := DefaultRegistry()
	var described []string
	for _, d := range Descriptions() {
		described = append(described, d.Type)
	}
	assert.ElementsMatch(t, reg.Types(), described)

	// valid holds a complete valid option set per type, so one option can
	// be varied at a time.
	valid := map[string]map[string]string{
		"max-order-value":   {"maxValue": "5000"},
		"max-position-size": {"maxPercentOfEquity": "25"},
		"daily-loss":        {"maxLoss": "1000"},
		"cooldown":          {"minIntervalMs": "60000"},
		"symbol-whitelist":  {"symbols": "AAPL, msft"},
	}
	for _, d := range Descriptions() {
		t.Run(d.Type, func(t *testing.T) {
			require.NotEmpty(t, d.Options, "a guard type without options has nothing to describe")
			base := valid[d.Type]
			require.NotNil(t, base, "add a valid option set for %s", d.Type)
			_, err := FromForm(reg, d.Type, base)
			require.NoError(t, err)
			for _, o := range d.Options {
				require.NotEmpty(t, o.Unit, "%s.%s has no unit", d.Type, o.Key)
				with := func(v string) error {
					vals := map[string]string{}
					for k, x := range base {
						vals[k] = x
					}
					vals[o.Key] = v
					_, err := FromForm(reg, d.Type, vals)
					return err
				}
				if o.Required {
					var fe *FieldError
					require.ErrorAs(t, with(""), &fe, "%s required", o.Key)
					assert.Equal(t, o.Key, fe.Key)
				}
				if o.Kind != OptionDecimal {
					continue
				}
				for _, bad := range []string{"0", "-1", "abc"} {
					var fe *FieldError
					require.ErrorAs(t, with(bad), &fe, "%s=%s", o.Key, bad)
					assert.Equal(t, o.Key, fe.Key, "the error names the field")
				}
				if o.Max == "" {
					continue
				}
				max := decimal.RequireFromString(o.Max)
				require.NoError(t, with(o.Max), "the bound itself is accepted")
				err := with(max.Add(decimal.New(1, -2)).String())
				var fe *FieldError
				require.ErrorAs(t, err, &fe, "just above the bound is refused")
				assert.Equal(t, o.Key, fe.Key)
				assert.Contains(t, fe.Error(), o.Max)
				// The pipeline (what start-up and alice check run) agrees.
				_, _, perr := NewPipeline(reg, []config.Guard{{Type: d.Type, Options: map[string]any{o.Key: max.Add(decimal.New(1, -2)).String()}}}, nil)
				assert.Error(t, perr)
			}
		})
	}
}

func TestFromFormBuildsOptionsAndRefusesUnknownType(t *testing.T) {
	t.Parallel()
	g, err := FromForm(DefaultRegistry(), "symbol-whitelist", map[string]string{"symbols": " aapl, ,MSFT "})
	require.NoError(t, err)
	assert.Equal(t, []any{"AAPL", "MSFT"}, g.Options["symbols"])
	g, err = FromForm(DefaultRegistry(), "max-position-size", map[string]string{})
	require.NoError(t, err, "an optional option left empty takes its default")
	assert.Empty(t, g.Options)
	_, err = FromForm(DefaultRegistry(), "daily-loss", map[string]string{})
	require.ErrorContains(t, err, "set maxLoss (amount) or maxLossPercent")
	_, err = FromForm(DefaultRegistry(), "max-order-valu", map[string]string{"maxValue": "1"})
	var ue *UnknownTypeError
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "max-order-value")
}
