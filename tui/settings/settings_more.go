package settings

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// The News feeds, Tools and Persona pages.

func (p *Pane) newsKey(k tea.KeyPressMsg) tea.Cmd {
	ks, sc, base := p.keys, p.sc, p.news.Version
	var feed FeedSetting
	have := p.sel < len(p.news.Feeds)
	if have {
		feed = p.news.Feeds[p.sel]
	}
	switch {
	case key.Matches(k, ks.Add):
		p.Form = newSettingsForm(p.keys, "Add news feed", "An RSS or Atom URL; the collector picks it up on its next cycle.", []formField{
			textField("name", "Name", "", "shown as the article source"),
			textField("url", "URL", "https://", ""),
		}, func(v map[string]string) tea.Cmd {
			return p.do(true, func(ctx context.Context) (string, error) {
				// Test first: a feed that does not parse is refused, not saved.
				res, err := sc.TestFeed(ctx, v["url"])
				if err != nil {
					return "", fmt.Errorf("%s: %w", strings.TrimSpace(v["url"]), err)
				}
				return "added feed " + res, sc.AddFeed(base, v["name"], v["url"])
			})
		})
	case key.Matches(k, ks.Test) && have:
		url := feed.URL
		p.progress("fetching " + url + "…")
		ctx := p.m.AppContext()
		return func() tea.Msg {
			res, err := sc.TestFeed(ctx, url)
			if err != nil {
				return settingsNoticeMsg("✗ " + url + ": " + err.Error())
			}
			return settingsNoticeMsg("✓ " + res)
		}
	case key.Matches(k, ks.Toggle) && have:
		url, on := feed.URL, !feed.Enabled
		return p.do(false, func(context.Context) (string, error) {
			return feed.Name + " " + onOff(on), sc.SetFeedEnabled(base, url, on)
		})
	case key.Matches(k, ks.Delete) && have:
		url := feed.URL
		p.m.OpenDialog("Remove news feed?", "Remove "+feed.Name+" ("+url+") from news.json?\nCollected articles stay in the archive.",
			p.do(false, func(context.Context) (string, error) { return "removed " + feed.Name, sc.RemoveFeed(base, url) }))
	}
	return nil
}

func (p *Pane) newsView() string {
	st := p.m.Styles()
	var b strings.Builder
	state := "collector on"
	if !p.news.Enabled {
		state = "collector off (news.json enabled=false)"
	}
	b.WriteString(st.Title.Render("News feeds") + st.Muted.Render("  "+state) + "\n\n")
	if len(p.news.Feeds) == 0 {
		b.WriteString(st.Muted.Render("  No feeds. Press a to add one.") + "\n")
	}
	for i, f := range p.news.Feeds {
		b.WriteString(p.row(i, kit.Cell(onOff(f.Enabled), 4)+" "+kit.Cell(f.Name, 22)+" "+clipText(f.URL, max(20, p.w-34))) + "\n")
	}
	return b.String()
}

func (p *Pane) toolsKey(k tea.KeyPressMsg) tea.Cmd {
	if !key.Matches(k, p.keys.Toggle) || p.sel >= len(p.tools) {
		return nil
	}
	sc, t := p.sc, p.tools[p.sel]
	on := !t.Enabled
	return p.do(false, func(context.Context) (string, error) {
		return fmt.Sprintf("tool %s %s (applies to the next call)", t.Name, map[bool]string{true: "enabled", false: "disabled"}[on]), sc.SetToolEnabled(t.Name, on)
	})
}

// toolsView shows the tools grouped (the pane's window keeps the
// selection in view).
func (p *Pane) toolsView() string {
	st := p.m.Styles()
	var lines []string
	group := "\x00"
	for i, t := range p.tools {
		if t.Group != group {
			group = t.Group
			lines = append(lines, st.Accent.Render(kit.OrDash(group)))
		}
		mark := "✓"
		if !t.Enabled {
			mark = "✗"
		}
		lines = append(lines, p.row(i, mark+" "+kit.Cell(t.Name, 26)+" "+st.Muted.Render(clipText(t.Description, max(10, p.w-36)))))
	}
	head := st.Title.Render("Tools") + st.Muted.Render(fmt.Sprintf("  %d tools · space enables/disables · tools.json", len(p.tools)))
	return head + "\n\n" + strings.Join(lines, "\n")
}

// PersonaOpenMsg: the persona file exists (created if it was missing).
type PersonaOpenMsg struct {
	Path string
	err  error
}

// personaEditedMsg reports that the editor exited.
type personaEditedMsg struct{ err error }

func (p *Pane) personaKey(k tea.KeyPressMsg) tea.Cmd {
	if !key.Matches(k, p.keys.Edit) {
		return nil
	}
	sc := p.sc
	return func() tea.Msg {
		path, _, err := sc.PersonaFile(true)
		return PersonaOpenMsg{path, err}
	}
}

// openEditor hands the terminal to $VISUAL/$EDITOR (vi by default).
func (p *Pane) openEditor(path string) tea.Cmd {
	ed := strings.Fields(firstNonEmptyEnv("VISUAL", "EDITOR"))
	if len(ed) == 0 {
		ed = []string{"vi"}
	}
	cmd := exec.Command(ed[0], append(ed[1:], path)...)
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return personaEditedMsg{err} })
}

func firstNonEmptyEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}

func (p *Pane) personaView() string {
	st := p.m.Styles()
	var b strings.Builder
	b.WriteString(st.Title.Render("Persona") + st.Muted.Render("  "+p.personaPath) + "\n")
	b.WriteString(st.Muted.Render("The agent's system prompt, re-read on every message. e/enter opens it in $EDITOR.") + "\n\n")
	lines := strings.Split(strings.TrimSpace(p.personaText), "\n")
	maxLines := max(1, p.h-6) // under the page tabs and its own 3 rows, above the hints
	if len(lines) > maxLines {
		lines = append(lines[:maxLines], st.Muted.Render("… "+kit.Plural(len(lines)-maxLines, "more line")))
	}
	for _, l := range lines {
		b.WriteString("  " + clipText(l, max(10, p.w-4)) + "\n")
	}
	return b.String()
}
