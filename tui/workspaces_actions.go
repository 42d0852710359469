package tui

import (
	"charm.land/bubbles/v2/key"
)

func (p *workspacesPane) Actions() []Action {
	k, m := p.m.keyMap().Workspaces, p.m
	out := []Action{
		{ID: "workspaces.new", Title: "New workspace", Group: "Workspaces", Key: keyOf(k.Create), Keywords: "create", Run: m.goAndPress(p, k.Create)},
	}
	if w, ok := p.current(); ok && p.mode == wsList {
		for _, s := range []struct {
			b     key.Binding
			id, t string
		}{{k.Shell, "shell", "shell"}, {k.Claude, "claude", "Claude Code"}, {k.Codex, "codex", "Codex"}} {
			out = append(out, Action{ID: "workspaces." + s.id, Title: "Start " + s.t + " in " + w.Tag, Group: "Workspaces", Key: keyOf(s.b),
				Keywords: "session terminal agent", Run: m.goAndPress(p, s.b)})
		}
		out = append(out,
			Action{ID: "workspaces.files", Title: "Browse files of " + w.Tag, Group: "Workspaces", Key: keyOf(k.Files), Run: m.goAndPress(p, k.Files)},
			Action{ID: "workspaces.git", Title: "Git log/status of " + w.Tag, Group: "Workspaces", Key: keyOf(k.Git), Run: m.goAndPress(p, k.Git)},
		)
		out = append(out, p.agentActions(w)...)
	}
	return out
}
