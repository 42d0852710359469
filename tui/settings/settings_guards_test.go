package settings_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading/guard"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/settings"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fake describes guards from trading/guard and validates added ones
// with guard.FromForm, as tui/live does, so the form meets real bounds.
func (f *fakeSettings) GuardTypes() []settings.GuardType {
	var out []settings.GuardType
	for _, d := range guard.Descriptions() {
		gt := settings.GuardType{Type: d.Type, Label: d.Label, Help: d.Help}
		for _, o := range d.Options {
			gt.Fields = append(gt.Fields, settings.GuardField{Key: o.Key, Label: o.Label, Unit: o.Unit, Default: o.Default,
				Max: o.Max, Help: o.Help, Required: o.Required, List: o.Kind == guard.OptionSymbols})
		}
		out = append(out, gt)
	}
	return out
}

func (f *fakeSettings) AddAccountGuard(ctx context.Context, id, typ string, values map[string]string) error {
	g, err := guard.FromForm(guard.DefaultRegistry(), typ, values)
	if err != nil {
		return err
	}
	return f.edit("", func() error {
		a := f.findAccount(id)
		var gs []config.Guard
		if err := json.Unmarshal([]byte(a.GuardsJSON), &gs); err != nil {
			return err
		}
		b, _ := json.Marshal(append(gs, g))
		a.GuardsJSON = string(b)
		return nil
	})
}

func (f *fakeSettings) RemoveAccountGuard(ctx context.Context, id string, index int, typ string) error {
	return f.edit("", func() error {
		a := f.findAccount(id)
		var gs []config.Guard
		if err := json.Unmarshal([]byte(a.GuardsJSON), &gs); err != nil {
			return err
		}
		if index < 0 || index >= len(gs) || gs[index].Type != typ {
			return fmt.Errorf("guard %d (%s) is no longer there", index+1, typ)
		}
		b, _ := json.Marshal(append(gs[:index:index], gs[index+1:]...))
		a.GuardsJSON = string(b)
		return nil
	})
}

// Adding a max-order-value guard through the generated form: the field
// shows its unit and bound, a bad value is shown next to the field and
// saves nothing, a good one reaches the core; then it is removed again.
func TestSettingsGuardFormAddsAndRemoves(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	h.Key("]")
	require.Contains(t, h.Screen(), "Trading accounts")
	h.Key("g")
	require.NotNil(t, h.M.Settings.Form)
	scr := h.Screen()
	assert.Contains(t, scr, "‹ add max-order-value ›")
	assert.Contains(t, scr, "No guards")
	h.Key("enter")
	scr = h.Screen()
	require.Contains(t, scr, "Add Max order value guard to sim-paper")
	assert.Contains(t, scr, "Max value (USD)")
	assert.Contains(t, scr, "required")

	h.TypeText("0")
	h.Send(tuitest.CtrlS())
	require.NotNil(t, h.M.Settings.Form, "a refused value keeps the form open")
	assert.Contains(t, h.Screen(), "✗ option maxValue: must be > 0, got 0")
	assert.Equal(t, "[]", fs.accounts[0].GuardsJSON, "nothing saved")

	h.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	h.TypeText("5000")
	h.Send(tuitest.CtrlS())
	require.Nil(t, h.M.Settings.Form)
	assert.JSONEq(t, `[{"type":"max-order-value","options":{"maxValue":"5000"}}]`, fs.accounts[0].GuardsJSON)
	assert.Contains(t, h.Screen(), `max-order-value`)

	// A percentage above its bound is refused next to its field.
	h.Key("g", "right", "enter") // add max-position-size
	require.Contains(t, h.Screen(), "Max share of equity (%)")
	assert.Contains(t, h.Screen(), "at most 100")
	h.TypeText("500")
	h.Send(tuitest.CtrlS())
	assert.Contains(t, h.Screen(), "✗ option maxPercentOfEquity: a percentage must be in (0, 100]")
	h.Key("esc")

	// Remove the guard: the choice after the five add entries.
	h.Key("g")
	for range len(guard.Descriptions()) {
		h.Key("right")
	}
	assert.Contains(t, h.Screen(), "‹ remove 1: max-order-value ›")
	h.Key("enter")
	assert.Nil(t, h.M.Settings.Form)
	assert.JSONEq(t, `[]`, fs.accounts[0].GuardsJSON)
}

// At 80x24 a refused value's message is read in full, wrapped under its
// field, not cut with "…" (found in tmux: `✗ option maxValue: "1e400":
// write the number out in plai…`); the field's help wraps the same way.
func TestSettingsGuardFormErrorWrapsAt80(t *testing.T) {
	t.Parallel()
	fs := newFakeSettings()
	h := tuitest.NewHarnessOver(t, fs, fs.FakeCore, 80, 24)
	h.Run(h.M.LoadAll())
	h.Send(tea.KeyPressMsg{Code: '8', Mod: tea.ModAlt})
	h.Key("]", "g", "enter")
	h.TypeText("1e400")
	h.Send(tuitest.CtrlS())
	want, err := guard.FromForm(guard.DefaultRegistry(), "max-order-value", map[string]string{"maxValue": "1e400"})
	require.Error(t, err, "%v", want)
	scr := h.Screen()
	squash := func(s string) string {
		var rows []string
		for _, l := range strings.Split(s, "\n") {
			rows = append(rows, strings.Trim(l, "│ "))
		}
		return strings.Join(strings.Fields(strings.Join(rows, " ")), " ")
	}
	assert.Contains(t, squash(scr), "✗ "+squash(err.Error()), "the whole message is on screen")
	assert.Contains(t, squash(scr), "largest notional of one order", "the field's help too")
	assert.Equal(t, "[]", fs.accounts[0].GuardsJSON, "nothing saved")
}
