package settings

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

func (p *Pane) selectedAccount() (AccountSetting, bool) {
	if p.sel < len(p.accts) {
		return p.accts[p.sel], true
	}
	return AccountSetting{}, false
}

func (p *Pane) accountsKey(k tea.KeyPressMsg) tea.Cmd {
	ks, sc := p.keys, p.sc
	a, have := p.selectedAccount()
	switch {
	case key.Matches(k, ks.Add):
		p.Form = p.presetChoiceForm()
	case key.Matches(k, ks.Toggle) && have:
		id, on := a.ID, !a.Enabled
		verb := map[bool]string{true: "started", false: "stopped"}[on]
		return p.do(false, func(ctx context.Context) (string, error) {
			return fmt.Sprintf("account %s %s", id, verb), sc.SetAccountEnabled(ctx, id, on)
		})
	case key.Matches(k, ks.AutoApprove) && have:
		id, on := a.ID, !a.AutoApprove
		act := p.do(false, func(ctx context.Context) (string, error) {
			return fmt.Sprintf("autoApprove %s for %s", map[bool]string{true: "ON", false: "off"}[on], id), sc.SetAccountAutoApprove(ctx, id, on)
		})
		if !on {
			return act // turning the safety back on needs no confirmation
		}
		p.m.OpenDialog("Turn ON autoApprove?", fmt.Sprintf("Account %s will execute the agent's orders WITHOUT asking you.\nGuards still apply. Money moves with no human approval.", id), act)
	case key.Matches(k, ks.Guards) && have:
		p.Form = p.guardChoiceForm(a)
	case key.Matches(k, ks.Reconnect) && have:
		id := a.ID
		return p.do(false, func(ctx context.Context) (string, error) {
			return "account " + id + " reconnected", sc.ReconnectAccount(ctx, id)
		})
	case key.Matches(k, ks.Delete) && have:
		id := a.ID
		p.m.OpenDialog("Remove account?", fmt.Sprintf("Remove %s from accounts.json and stop it?\nIts history stays on disk.", id),
			p.do(false, func(ctx context.Context) (string, error) { return "removed " + id, sc.RemoveAccount(ctx, id) }))
	}
	return nil
}

// presetChoiceForm is step one of adding an account: pick the preset.
func (p *Pane) presetChoiceForm() *settingsForm {
	var ids []string
	for _, pr := range p.presets {
		ids = append(ids, pr.ID)
	}
	f := newSettingsForm(p.keys, "Add trading account", "Choose a broker preset (←/→), then enter.",
		[]formField{choiceField("preset", "Preset", ids, "simulator")}, nil)
	f.submit = func(v map[string]string) tea.Cmd {
		for _, pr := range p.presets {
			if pr.ID == v["preset"] {
				next := p.accountForm(pr)
				return func() tea.Msg { return settingsOpenFormMsg{form: next} }
			}
		}
		return func() tea.Msg {
			return settingsDoneMsg{form: true, err: fmt.Errorf("no preset %q (press r to reload)", v["preset"])}
		}
	}
	f.change = func(v map[string]string) tea.Cmd {
		desc := ""
		for _, pr := range p.presets {
			if pr.ID == v["preset"] {
				desc = pr.Name + ": " + pr.Description
			}
		}
		form, seq := f, f.Seq
		return func() tea.Msg { return SettingsPreviewMsg{Form: form, Seq: seq, Text: desc} }
	}
	if len(p.presets) > 0 {
		f.Extra = p.presets[0].Name + ": " + p.presets[0].Description
		for _, pr := range p.presets {
			if pr.ID == "simulator" {
				f.Extra = pr.Name + ": " + pr.Description
			}
		}
	}
	return f
}

// accountForm is generated from the preset's field schema.
func (p *Pane) accountForm(pr AccountPreset) *settingsForm {
	sc := p.sc
	n := len(p.accts) + 1
	id := fmt.Sprintf("%s-%d", strings.SplitN(pr.ID, "-", 2)[0], n)
	fields := []formField{
		textField("id", "Account id", id, "lowercase letters, digits, - or _ (names its history directory)"),
		textField("label", "Label", pr.Name, ""),
	}
	for _, f := range pr.Fields {
		help := f.Help
		if f.Kind == "env" {
			help = strings.TrimSpace("environment variable NAME holding the secret. " + help)
		}
		ff := textField("preset."+f.Key, f.Label, f.Default, help)
		if f.Kind == "choice" && len(f.Options) > 0 {
			ff = choiceField("preset."+f.Key, f.Label, f.Options, f.Default)
			ff.help = help
		}
		if f.Kind == "secret" {
			ff.input.EchoMode = textinput.EchoPassword
			ff.warn = "stored in plain text in accounts.json"
		}
		fields = append(fields, ff)
	}
	intro := pr.Description + " Starts immediately; no restart."
	return newSettingsForm(p.keys, "Add "+pr.Name, intro, fields, func(v map[string]string) tea.Cmd {
		in := NewAccountInput{ID: v["id"], Label: v["label"], PresetID: pr.ID, Values: map[string]string{}}
		for k, val := range v {
			if key, ok := strings.CutPrefix(k, "preset."); ok {
				in.Values[key] = val
			}
		}
		return p.do(true, func(ctx context.Context) (string, error) {
			return "account " + in.ID + " added and started", sc.AddAccount(ctx, in)
		})
	})
}

func (p *Pane) accountsView() string {
	st := p.m.Styles()
	var b strings.Builder
	b.WriteString(st.Title.Render("Trading accounts") + st.Muted.Render("  applied live, no restart") + "\n\n")
	if len(p.accts) == 0 {
		b.WriteString(st.Muted.Render("No accounts. Press a to add a simulator (paper) account.") + "\n")
	}
	for i, a := range p.accts {
		health := a.Health
		hs := st.Profit
		switch {
		case !a.Enabled:
			health, hs = "disabled", st.Muted
		case a.Health != "healthy":
			hs = st.Warn
		}
		auto := ""
		if a.AutoApprove {
			auto = st.Warn.Render(" autoApprove ON")
		}
		line := kit.Cell(a.ID, 16) + " " + kit.Cell(kit.OrDash(a.Label), 22) + " " + kit.Cell(a.Preset, 10) + " "
		b.WriteString(p.row(i, line) + hs.Render(health) + auto + "\n")
		if a.Error != "" && i == p.sel {
			b.WriteString(markDetail + "    " + st.Error.Render(clipText(a.Error, max(20, p.w-6))) + "\n")
		}
	}
	if a, ok := p.selectedAccount(); ok {
		b.WriteString("\n" + st.Muted.Render("guards: "+clipText(a.GuardsJSON, max(20, p.w-12))))
	}
	return b.String()
}
