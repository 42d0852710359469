package tui

import (
	"context"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// The root model is every pane's host.
var _ kit.Host = (*Model)(nil)

func (m *Model) Styles() *kit.Styles                { return &m.St }
func (m *Model) KeyMap() *kit.KeyMap                { return &m.keys }
func (m *Model) Clock() time.Time                   { return m.now() }
func (m *Model) AppContext() context.Context        { return m.Ctx }
func (m *Model) BeginWork(id, label string) tea.Cmd { return m.Work.Begin(id, label, m.now()) }
func (m *Model) EndWork(id string)                  { m.Work.End(id) }
func (m *Model) EndWorkPrefix(prefix string)        { m.Work.EndPrefix(prefix) }
func (m *Model) Show(p kit.Pane)                    { m.SetFocus(m.PaneIndex(p)) }
func (m *Model) Provider() string                   { return m.Status.Provider }
func (m *Model) ReloadPortfolio() tea.Cmd           { return m.Portfolio.Load() }

// GoAndPress focuses p, then presses b there.
func (m *Model) GoAndPress(p kit.Pane, b key.Binding) func() tea.Cmd {
	return func() tea.Cmd {
		m.SetFocus(m.PaneIndex(p))
		return kit.Press(p, b)
	}
}
