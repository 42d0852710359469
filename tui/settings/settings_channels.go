package settings

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// The Channels page: every chat channel (archived ones too) and the
// Telegram and Ask connector channels, each with its provider profile,
// the tools it hides and its persona addition. Edits go through
// SettingsCore.SaveChannel (the settings service: one check with the new
// channels.json in place), never by writing the file here.

// activeProfile is how the edit form names "no override".
const activeProfile = "(active profile)"

func (p *Pane) selectedChannel() (ChannelSetting, bool) {
	if p.sel < len(p.chans.Channels) {
		return p.chans.Channels[p.sel], true
	}
	return ChannelSetting{}, false
}

// saveChannel saves c (the whole entry) and reports it as settingsDoneMsg.
func (p *Pane) saveChannel(fromForm bool, c ChannelSetting, done string) tea.Cmd {
	sc, base := p.sc, p.chans.Version
	return p.do(fromForm, func(context.Context) (string, error) { return done, sc.SaveChannel(base, c) })
}

func (p *Pane) channelsKey(k tea.KeyPressMsg) tea.Cmd {
	ks := p.keys
	if key.Matches(k, ks.NewChannel) {
		p.Form = p.newChannelForm()
		return nil
	}
	ch, have := p.selectedChannel()
	if !have {
		return nil
	}
	switch {
	case key.Matches(k, ks.Edit):
		p.Form = p.channelForm(ch)
	case key.Matches(k, ks.ChannelTools):
		p.picker = newToolPicker(ch, p.tools)
	case key.Matches(k, ks.Archive):
		if ch.Connector || ch.ID == "default" {
			return kit.ErrCmd(fmt.Errorf("%s cannot be archived", ch.Label))
		}
		ch.Archived = !ch.Archived
		verb := map[bool]string{true: "archived (its session stays in ctrl+s)", false: "restored"}[ch.Archived]
		return p.saveChannel(false, ch, ch.Label+" "+verb)
	}
	return nil
}

// profileChoices lists the AI profiles a channel can use, "no override"
// first.
func (p *Pane) profileChoices() []string {
	profiles := []string{activeProfile}
	for _, pr := range p.prov.Profiles {
		profiles = append(profiles, pr.Name)
	}
	return profiles
}

// newChannelForm creates a chat channel (what the chat's /new does) with
// an optional AI profile; the new channel is selected once it is listed.
func (p *Pane) newChannelForm() *settingsForm {
	fields := []formField{textField("label", "Name", "", "what the channel lists show; its id is derived from it")}
	if profiles := p.profileChoices(); len(profiles) > 1 {
		fields = append(fields, choiceField("profile", "AI profile", profiles, activeProfile))
	}
	return newSettingsForm(p.keys, "New channel", "A chat channel with its own session; switch to it in chat with ctrl+s or /channel.", fields, func(v map[string]string) tea.Cmd {
		sc, label, profile := p.sc, strings.TrimSpace(v["label"]), v["profile"]
		if profile == activeProfile { // or no profile field
			profile = ""
		}
		return func() tea.Msg {
			id, err := sc.AddChannel(label, profile)
			return settingsDoneMsg{text: "created channel " + label, err: err, form: true, sel: id}
		}
	})
}

// channelForm edits a channel's name, profile and persona addition.
func (p *Pane) channelForm(ch ChannelSetting) *settingsForm {
	profiles := p.profileChoices()
	cur := ch.Profile
	if cur == "" {
		cur = activeProfile
	} else if !slices.Contains(profiles, cur) {
		profiles = append(profiles, cur) // missing from ai-provider.json: shown so saving names the problem
	}
	intro := "Applies from this channel's next message."
	if ch.Connector {
		intro = "Applies to every " + ch.Label + " chat from its next message."
	}
	return newSettingsForm(p.keys, "Channel "+ch.Label+" ("+ch.ID+")", intro, []formField{
		textField("label", "Name", ch.Label, "what the channel lists show"),
		choiceField("profile", "AI profile", profiles, cur),
		textField("persona", "Persona addition", ch.Persona, "added after the persona in this channel's system prompt"),
	}, func(v map[string]string) tea.Cmd {
		out := ch
		out.Label, out.Persona, out.Profile = v["label"], v["persona"], v["profile"]
		if out.Profile == activeProfile {
			out.Profile = ""
		}
		return p.saveChannel(true, out, "saved channel "+strings.TrimSpace(out.Label))
	})
}

func (p *Pane) channelsView() string {
	st := p.m.Styles()
	var b strings.Builder
	b.WriteString(st.Title.Render("Channels") + st.Muted.Render("  "+kit.OrDash(p.chans.File)) + "\n")
	b.WriteString(st.Muted.Render("Each chat has its own session, AI profile, hidden tools and persona addition.") + "\n\n")
	if len(p.chans.Channels) == 0 {
		b.WriteString(st.Muted.Render("  No channels.") + "\n")
	}
	nameW := min(26, max(12, p.w/4))
	for i, c := range p.chans.Channels {
		prof := c.Profile
		if prof == "" {
			prof = "active"
		}
		tools := "all tools"
		if n := len(c.DisabledTools); n > 0 {
			tools = fmt.Sprintf("%d tool%s off", n, map[bool]string{true: "s"}[n > 1])
		}
		persona := "—"
		if strings.TrimSpace(c.Persona) != "" {
			persona = "persona +"
		}
		state := ""
		switch {
		case c.Connector:
			state = "connector"
		case c.Archived:
			state = "archived"
		}
		b.WriteString(p.row(i, kit.Cell(c.Label+" ("+c.ID+")", nameW)+" "+kit.Cell(prof, 14)+" "+kit.Cell(tools, 12)+" "+
			kit.Cell(persona, 10)+" "+state) + "\n")
	}
	if c, ok := p.selectedChannel(); ok && (len(c.DisabledTools) > 0 || c.Persona != "") {
		b.WriteString("\n")
		if len(c.DisabledTools) > 0 {
			b.WriteString(st.Muted.Render("  tools off: ") + clipText(strings.Join(c.DisabledTools, ", "), max(10, p.w-14)) + "\n")
		}
		if c.Persona != "" {
			first, _, _ := strings.Cut(strings.TrimSpace(c.Persona), "\n")
			b.WriteString(st.Muted.Render("  persona +: ") + clipText(first, max(10, p.w-14)) + "\n")
		}
	}
	return b.String()
}
