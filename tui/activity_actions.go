package tui

import (
	tea "charm.land/bubbletea/v2"
)

// Actions lists the Activity pane's palette entries.
func (p *activityPane) Actions() []Action {
	tab := func(t activityTab, id, words string) Action {
		return Action{ID: "activity." + id, Title: "Activity: " + activityTabNames[t], Group: "Activity", Keywords: words,
			Run: func() tea.Cmd {
				p.m.show(p)
				p.tab, p.detail = t, false
				return p.load()
			}}
	}
	return []Action{
		tab(tabEvents, "events", "event log causedBy json"),
		tab(tabRuns, "runs", "cron heartbeat webhook task"),
		tab(tabToolCalls, "toolcalls", "tool calls arguments duration errors"),
		tab(tabNotifications, "notifications", "notify delivered channel"),
	}
}
