package guard

import (
	"fmt"
	"strings"

	"github.com/alice-trading/alice/config"

	"github.com/shopspring/decimal"
)

// OptionKind is how a guard option is typed in accounts.json.
type OptionKind string

const (
	OptionDecimal OptionKind = "decimal" // a positive number or decimal string
	OptionSymbols OptionKind = "symbols" // a list of ticker symbols
)

// Option describes one guard option for generated forms. Max is the same
// bound the guard's factory enforces (the factories read it from here).
type Option struct {
	Key      string     `json:"key"`
	Label    string     `json:"label"`
	Kind     OptionKind `json:"kind"`
	Unit     string     `json:"unit,omitempty"` // USD, %, ms, symbols
	Required bool       `json:"required,omitempty"`
	Default  string     `json:"default,omitempty"` // what an absent option means
	Max      string     `json:"max,omitempty"`     // inclusive upper bound; every decimal is > 0
	Help     string     `json:"help,omitempty"`
}

// Description describes one guard type.
type Description struct {
	Type    string   `json:"type"`
	Label   string   `json:"label"`
	Help    string   `json:"help"`
	Options []Option `json:"options"`
}

const (
	maxPercent = "100"
	// maxCooldownMs bounds the cooldown guard's interval (7 days): a longer
	// one is almost certainly a unit mistake and would freeze a symbol.
	maxCooldownMs = 7 * 24 * 60 * 60 * 1000
	// maxMoney bounds amounts (trading.MaxCash): a limit above it protects
	// nothing, as a misspelt guard does.
	maxMoney = "1000000000000"
)

// Descriptions lists the built-in guard types' options, in display order.
func Descriptions() []Description {
	return []Description{
		{Type: "max-order-value", Label: "Max order value", Help: "refuses an order whose value (what will execute) exceeds the limit",
			Options: []Option{{Key: "maxValue", Label: "Max value", Kind: OptionDecimal, Unit: "USD", Required: true, Max: maxMoney, Help: "largest notional of one order"}}},
		{Type: "max-position-size", Label: "Max position size", Help: "refuses a buy that makes a position more than this share of equity",
			Options: []Option{{Key: "maxPercentOfEquity", Label: "Max share of equity", Kind: OptionDecimal, Unit: "%", Default: "25", Max: maxPercent}}},
		{Type: "daily-loss", Label: "Daily loss limit", Help: "blocks buys once today's loss reaches a limit (set one or both)",
			Options: []Option{
				{Key: "maxLoss", Label: "Max loss", Kind: OptionDecimal, Unit: "USD", Max: maxMoney, Help: "amount lost today"},
				{Key: "maxLossPercent", Label: "Max loss", Kind: OptionDecimal, Unit: "%", Max: maxPercent, Help: "share of today's starting equity"},
			}},
		{Type: "cooldown", Label: "Cooldown", Help: "spaces orders in the same symbol",
			Options: []Option{{Key: "minIntervalMs", Label: "Min interval", Kind: OptionDecimal, Unit: "ms", Default: "60000", Max: fmt.Sprint(maxCooldownMs), Help: "7 days"}}},
		{Type: "symbol-whitelist", Label: "Symbol whitelist", Help: "allows only the listed symbols",
			Options: []Option{{Key: "symbols", Label: "Symbols", Kind: OptionSymbols, Unit: "symbols", Required: true, Help: "comma-separated, e.g. AAPL, MSFT"}}},
	}
}

// Describe returns one type's description.
func Describe(typ string) (Description, bool) {
	for _, d := range Descriptions() {
		if d.Type == typ {
			return d, true
		}
	}
	return Description{}, false
}

// option is the description of one built-in option (it must exist: the
// factories call it with their own keys, and a test checks coverage).
func option(typ, key string) Option {
	d, _ := Describe(typ)
	for _, o := range d.Options {
		if o.Key == key {
			return o
		}
	}
	panic("guard: no description for " + typ + "." + key)
}

// bounded is optDecimal plus the option's described upper bound.
func bounded(typ string, opts map[string]any, key string, def decimal.Decimal) (decimal.Decimal, error) {
	o := option(typ, key)
	d, err := optDecimal(opts, key, def)
	if err != nil || o.Max == "" {
		return d, err
	}
	limit := decimal.RequireFromString(o.Max)
	if d.GreaterThan(limit) {
		if o.Unit == "%" {
			return def, fmt.Errorf("option %s: a percentage must be in (0, %s], got %s (above 100%% the guard could never trigger)", key, o.Max, d)
		}
		return def, fmt.Errorf("option %s: must be at most %s%s (%s), got %s", key, o.Max, unitSuffix(o.Unit), o.Help, d)
	}
	return d, nil
}

func unitSuffix(u string) string {
	if u == "%" {
		return "%"
	}
	return " " + u
}

// FromForm builds a guard config from a form's text values (by option
// key) and validates it with the registry's factory, so a form can never
// save an unknown type or a value the guard refuses. Empty values are
// left out (the option's default applies). A *FieldError names the
// option at fault when one does.
func FromForm(reg Registry, typ string, values map[string]string) (config.Guard, error) {
	d, ok := Describe(typ)
	f, known := reg[typ]
	if !ok || !known {
		return config.Guard{}, &UnknownTypeError{Type: typ, Known: reg.Types()}
	}
	opts := map[string]any{}
	for _, o := range d.Options {
		v := strings.TrimSpace(values[o.Key])
		if v == "" {
			if o.Required {
				return config.Guard{}, &FieldError{Key: o.Key, Msg: "required"}
			}
			continue
		}
		if o.Kind == OptionSymbols {
			var list []any
			for _, s := range strings.Split(v, ",") {
				if s = strings.TrimSpace(s); s != "" {
					list = append(list, strings.ToUpper(s))
				}
			}
			opts[o.Key] = list
			continue
		}
		opts[o.Key] = v
	}
	if _, err := f(opts); err != nil {
		fe := &FieldError{Msg: err.Error()}
		for _, o := range d.Options {
			if strings.HasPrefix(err.Error(), "option "+o.Key+":") || strings.HasPrefix(err.Error(), "option "+o.Key+" ") {
				fe.Key = o.Key
			}
		}
		return config.Guard{}, fe
	}
	return config.Guard{Type: typ, Options: opts}, nil
}

// FieldError is a form value a guard refuses; Key is the option ("" when
// the error concerns the guard as a whole, e.g. daily-loss with neither
// limit set).
type FieldError struct{ Key, Msg string }

func (e *FieldError) Error() string {
	if e.Key == "" || strings.HasPrefix(e.Msg, "option ") {
		return e.Msg
	}
	return "option " + e.Key + ": " + e.Msg
}

// Field is the option at fault ("" for the guard as a whole), for forms
// that show the message next to the field.
func (e *FieldError) Field() string { return e.Key }
