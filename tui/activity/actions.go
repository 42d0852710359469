package activity

import (
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// Actions lists the Activity pane's palette entries.
func (p *Pane) Actions() []kit.Action {
	tab := func(t activityTab, id, words string) kit.Action {
		return kit.Action{ID: "activity." + id, Title: "Activity: " + activityTabNames[t], Group: "Activity", Keywords: words,
			Run: func() tea.Cmd {
				p.m.Show(p)
				p.tab, p.detail = t, false
				return p.Load()
			}}
	}
	return []kit.Action{
		tab(tabEvents, "events", "event log causedBy json"),
		tab(tabRuns, "runs", "cron heartbeat webhook task"),
		tab(tabToolCalls, "toolcalls", "tool calls arguments duration errors"),
		tab(tabNotifications, "notifications", "notify delivered channel"),
		{ID: "activity.retry", Title: "Activity: retry the selected failed run", Group: "Activity", Keywords: "retry failed abandoned task queue",
			Run: func() tea.Cmd {
				p.m.Show(p)
				p.tab = tabRuns
				return p.retrySelected()
			}},
	}
}
