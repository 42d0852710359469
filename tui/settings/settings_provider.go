package settings

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// backendNames are the values ai-provider.json accepts for "backend".
var backendNames = []string{"openai", "anthropic", "claude-cli", "codex-cli"}

func (p *Pane) selectedProfile() (ProfileSetting, bool) {
	if p.sel < len(p.prov.Profiles) {
		return p.prov.Profiles[p.sel], true
	}
	return ProfileSetting{}, false
}

func (p *Pane) providerKey(k tea.KeyPressMsg) tea.Cmd {
	ks, sc, base := p.keys, p.sc, p.prov.Version
	prof, have := p.selectedProfile()
	switch {
	case key.Matches(k, ks.Add):
		p.Form = p.profileForm(ProfileSetting{Backend: "openai"}, "")
	case key.Matches(k, ks.Edit) && have:
		p.Form = p.profileForm(prof, prof.Name)
	case key.Matches(k, ks.Delete) && have:
		name := prof.Name
		p.m.OpenDialog("Delete AI profile?", fmt.Sprintf("Remove profile %q from ai-provider.json?\nChannel overrides that use it are removed too.", name),
			p.do(false, func(context.Context) (string, error) { return "deleted profile " + name, sc.DeleteProfile(base, name) }))
	case key.Matches(k, ks.SetActive) && have:
		name := prof.Name
		return p.do(false, func(context.Context) (string, error) {
			return name + " is the active profile (next message uses it)", sc.SetActiveProfile(base, name)
		})
	case key.Matches(k, ks.Test) && have:
		name := prof.Name
		p.progress("testing " + name + "…")
		ctx := p.m.AppContext()
		return func() tea.Msg {
			r, err := sc.TestProfile(ctx, name)
			if err != nil {
				return settingsNoticeMsg(fmt.Sprintf("✗ %s: %v", name, err))
			}
			return settingsNoticeMsg(fmt.Sprintf("✓ %s answered in %s: %q", r.Label, r.Latency.Round(time.Millisecond), clipText(r.Reply, 60)))
		}
	case key.Matches(k, ks.Channel):
		cur := ""
		if have {
			cur = prof.Name
		}
		p.Form = newSettingsForm(p.keys, "Channel override",
			"Route one channel to a profile (empty profile removes the override).",
			[]formField{
				choiceField("channel", "Channel", []string{"tui", "telegram", "mcp-ask", "heartbeat", "cron"}, "tui"),
				textField("profile", "Profile", cur, "a profile name, or empty to use the active profile"),
			}, func(v map[string]string) tea.Cmd {
				return p.do(true, func(context.Context) (string, error) {
					return "channel " + v["channel"] + " updated", sc.SetChannelProfile(base, v["channel"], strings.TrimSpace(v["profile"]))
				})
			})
	}
	return nil
}

// profileForm adds (oldName "") or edits a profile.
func (p *Pane) profileForm(ps ProfileSetting, oldName string) *settingsForm {
	sc, base := p.sc, p.prov.Version
	title := "Add AI profile"
	if oldName != "" {
		title = "Edit AI profile " + oldName
	}
	key := textField("apiKey", "API key (stored)", ps.APIKey, "prefer the env var: a key stored here is plain text in ai-provider.json")
	key.warn = "stored in plain text in ai-provider.json; use an env var instead"
	key.input.EchoMode = textinput.EchoPassword // never echo a key on screen
	fields := []formField{
		textField("name", "Name", ps.Name, "letters, digits, - or _"),
		choiceField("backend", "Backend", backendNames, ps.Backend),
		textField("model", "Model", ps.Model, "empty = the backend's default"),
		textField("baseUrl", "Base URL", ps.BaseURL, "OpenAI-compatible servers (Ollama, llama.cpp, OpenRouter), proxies"),
		textField("apiKeyEnv", "API key env var", ps.APIKeyEnv, "the NAME of an environment variable, e.g. OPENAI_API_KEY"),
		key,
	}
	return newSettingsForm(p.keys, title, "Takes effect on the next message.", fields, func(v map[string]string) tea.Cmd {
		in := ProfileSetting{Name: strings.TrimSpace(v["name"]), Backend: v["backend"], Model: v["model"], BaseURL: v["baseUrl"],
			APIKeyEnv: v["apiKeyEnv"], APIKey: v["apiKey"]}
		return p.do(true, func(context.Context) (string, error) {
			return "saved profile " + in.Name, sc.SaveProfile(base, oldName, in)
		})
	})
}

func (p *Pane) providerView() string {
	st := p.m.Styles()
	var b strings.Builder
	b.WriteString(st.Title.Render("AI profiles") + st.Muted.Render("  "+p.prov.File) + "\n\n")
	if len(p.prov.Profiles) == 0 {
		b.WriteString(st.Muted.Render("No profiles yet. Press a to add one (e.g. backend openai with a base URL for a local model).") + "\n")
	}
	for i, pr := range p.prov.Profiles {
		mark := "  "
		if pr.Name == p.prov.Active {
			mark = "● "
		}
		keyInfo := "no key"
		switch {
		case pr.APIKeyEnv != "":
			keyInfo = "$" + pr.APIKeyEnv
		case pr.APIKey != "":
			keyInfo = "key stored in file ⚠"
		}
		model := pr.Model
		if model == "" {
			model = "default model"
		}
		line := mark + kit.Cell(pr.Name, 14) + " " + kit.Cell(pr.Backend, 10) + " " + kit.Cell(model, 22) + " " + kit.Cell(kit.OrDash(pr.BaseURL), 28) + " " + keyInfo
		b.WriteString(p.row(i, line) + "\n")
	}
	if len(p.prov.Channels) > 0 {
		b.WriteString("\n" + st.Accent.Render("Channel overrides") + "\n")
		chs := make([]string, 0, len(p.prov.Channels))
		for ch := range p.prov.Channels {
			chs = append(chs, ch)
		}
		sort.Strings(chs)
		for _, ch := range chs {
			b.WriteString("  " + kit.Cell(ch, 12) + " → " + p.prov.Channels[ch] + "\n")
		}
	}
	b.WriteString("\n" + st.Muted.Render("● active profile"))
	return b.String()
}

// clipText shortens s to n runes with an ellipsis.
func clipText(s string, n int) string {
	// One row: a description with newlines or tabs must not break a table.
	// n is display columns (a CJK character or an emoji counts two).
	s = kit.OneLine(s)
	if n <= 0 {
		return ""
	}
	return ansi.Truncate(s, n, "…")
}
