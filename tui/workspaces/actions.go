package workspaces

import (
	"charm.land/bubbles/v2/key"
	"github.com/alice-trading/alice/tui/kit"
)

func (p *Pane) Actions() []kit.Action {
	k, m := p.m.KeyMap().Workspaces, p.m
	out := []kit.Action{
		{ID: "workspaces.new", Title: "New workspace", Group: "Workspaces", Key: kit.KeyOf(k.Create), Keywords: "create", Run: m.GoAndPress(p, k.Create)},
	}
	if w, ok := p.current(); ok && p.Mode == WsList {
		for _, s := range []struct {
			b     key.Binding
			id, t string
		}{{k.Shell, "shell", "shell"}, {k.Claude, "claude", "Claude Code"}, {k.Codex, "codex", "Codex"}} {
			out = append(out, kit.Action{ID: "workspaces." + s.id, Title: "Start " + s.t + " in " + w.Tag, Group: "Workspaces", Key: kit.KeyOf(s.b),
				Keywords: "session terminal agent", Run: m.GoAndPress(p, s.b)})
		}
		out = append(out,
			kit.Action{ID: "workspaces.files", Title: "Browse files of " + w.Tag, Group: "Workspaces", Key: kit.KeyOf(k.Files), Run: m.GoAndPress(p, k.Files)},
			kit.Action{ID: "workspaces.git", Title: "Git log/status of " + w.Tag, Group: "Workspaces", Key: kit.KeyOf(k.Git), Run: m.GoAndPress(p, k.Git)},
		)
		out = append(out, p.agentActions(w)...)
	}
	return out
}
