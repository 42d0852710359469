package live

import (
	"context"
	"fmt"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading/guard"
	"github.com/alice-trading/alice/tui/settings"
)

// GuardTypes lists the guard types with their option fields, from the
// same descriptions the guards validate with.
func (c *Core) GuardTypes() []settings.GuardType {
	var out []settings.GuardType
	for _, d := range guard.Descriptions() {
		gt := settings.GuardType{Type: d.Type, Label: d.Label, Help: d.Help}
		for _, o := range d.Options {
			gt.Fields = append(gt.Fields, settings.GuardField{Key: o.Key, Label: o.Label, Unit: o.Unit,
				Default: o.Default, Max: o.Max, Help: o.Help, Required: o.Required, List: o.Kind == guard.OptionSymbols})
		}
		out = append(out, gt)
	}
	return out
}

// AddAccountGuard appends a guard built from form values. The values are
// validated by the guard's own factory first (an error names the option:
// *guard.FieldError), then the edit goes through UpdateAccount, which
// validates accounts.json as a whole like `alice check`.
func (c *Core) AddAccountGuard(ctx context.Context, id, typ string, values map[string]string) error {
	g, err := guard.FromForm(guard.DefaultRegistry(), typ, values)
	if err != nil {
		return err
	}
	return c.trading.UpdateAccount(ctx, id, "", func(a *config.Account) error {
		a.Guards = append(a.Guards, g)
		return nil
	})
}

// RemoveAccountGuard removes the guard at index (0-based) when it still
// has the type the person saw; otherwise the file changed meanwhile.
func (c *Core) RemoveAccountGuard(ctx context.Context, id string, index int, typ string) error {
	return c.trading.UpdateAccount(ctx, id, "", func(a *config.Account) error {
		if index < 0 || index >= len(a.Guards) || a.Guards[index].Type != typ {
			return fmt.Errorf("guard %d (%s) of %s is no longer there; the file changed, reload and try again", index+1, typ, id)
		}
		a.Guards = append(a.Guards[:index:index], a.Guards[index+1:]...)
		return nil
	})
}
