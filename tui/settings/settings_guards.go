package settings

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// guardEntry is one configured guard as accounts.json holds it.
type guardEntry struct {
	Type    string         `json:"type"`
	Options map[string]any `json:"options"`
}

// guardChoiceForm is step one of editing an account's guards: add a guard
// of a described type, remove one, or (fallback) edit the JSON.
func (p *Pane) guardChoiceForm(a AccountSetting) *settingsForm {
	id := a.ID
	var current []guardEntry
	_ = json.Unmarshal([]byte(a.GuardsJSON), &current) // unreadable: only add and JSON are offered
	var opts []string
	for _, g := range p.guards {
		opts = append(opts, "add "+g.Type)
	}
	for i, g := range current {
		opts = append(opts, fmt.Sprintf("remove %d: %s", i+1, g.Type))
	}
	opts = append(opts, "edit as JSON")
	intro := "Choose (←/→), then enter. Applied live."
	f := newSettingsForm(p.keys, "Guards for "+id, intro, []formField{choiceField("action", "Action", opts, "")}, nil)
	f.Extra = guardSummary(current)
	f.submit = func(v map[string]string) tea.Cmd {
		act := v["action"]
		var next *settingsForm
		switch {
		case strings.HasPrefix(act, "add "):
			for _, g := range p.guards {
				if "add "+g.Type == act {
					next = p.guardForm(id, g)
				}
			}
		case strings.HasPrefix(act, "remove "):
			var n int
			var typ string
			if _, err := fmt.Sscanf(act, "remove %d: %s", &n, &typ); err == nil {
				return p.do(true, func(ctx context.Context) (string, error) {
					return fmt.Sprintf("guard %s removed from %s", typ, id), p.sc.RemoveAccountGuard(ctx, id, n-1, typ)
				})
			}
		default:
			next = p.guardJSONForm(id, a.GuardsJSON)
		}
		if next == nil {
			return func() tea.Msg {
				return settingsDoneMsg{form: true, err: fmt.Errorf("unknown action %q (press r to reload)", act)}
			}
		}
		return func() tea.Msg { return settingsOpenFormMsg{form: next} }
	}
	return f
}

// guardSummary lists the configured guards, one a line.
func guardSummary(gs []guardEntry) string {
	if len(gs) == 0 {
		return "No guards: every order the account is asked to place reaches the broker."
	}
	var b strings.Builder
	b.WriteString("Current guards:")
	for i, g := range gs {
		o, _ := json.Marshal(g.Options)
		fmt.Fprintf(&b, "\n  %d. %s %s", i+1, g.Type, o)
	}
	return b.String()
}

// guardForm is generated from the guard type's option fields; the core
// validates with the guard's own bounds and names a refused field.
func (p *Pane) guardForm(id string, g GuardType) *settingsForm {
	var fields []formField
	for _, fd := range g.Fields {
		label := fd.Label + " (" + fd.Unit + ")"
		var help []string
		if fd.Required {
			help = append(help, "required")
		}
		if fd.Max != "" {
			help = append(help, fmt.Sprintf("> 0 and at most %s", fd.Max))
		} else if !fd.List {
			help = append(help, "> 0")
		}
		if fd.Default != "" {
			help = append(help, "empty = "+fd.Default)
		}
		if fd.Help != "" {
			help = append(help, fd.Help)
		}
		fields = append(fields, textField(fd.Key, label, "", strings.Join(help, " · ")))
	}
	return newSettingsForm(p.keys, "Add "+g.Label+" guard to "+id, g.Type+": "+g.Help+".", fields, func(v map[string]string) tea.Cmd {
		return p.do(true, func(ctx context.Context) (string, error) {
			return fmt.Sprintf("guard %s added to %s", g.Type, id), p.sc.AddAccountGuard(ctx, id, g.Type, v)
		})
	})
}

// guardJSONForm is the raw fallback: the whole list as a JSON array.
func (p *Pane) guardJSONForm(id, current string) *settingsForm {
	return newSettingsForm(p.keys, "Guards for "+id+" (JSON)",
		`A JSON array, e.g. [{"type":"max-order-value","options":{"maxValue":"5000"}}]. Applied live.`,
		[]formField{textField("guards", "Guards", current, "validated like alice check; an unknown type is refused")},
		func(v map[string]string) tea.Cmd {
			return p.do(true, func(ctx context.Context) (string, error) {
				return "guards saved for " + id, p.sc.SetAccountGuards(ctx, id, v["guards"])
			})
		})
}
