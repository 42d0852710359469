package tui

import (
	"context"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The root model is every pane's host.
var _ host = (*Model)(nil)

func (m *Model) styles() *Styles                    { return &m.st }
func (m *Model) keyMap() *KeyMap                    { return &m.keys }
func (m *Model) clock() time.Time                   { return m.now() }
func (m *Model) appContext() context.Context        { return m.ctx }
func (m *Model) beginWork(id, label string) tea.Cmd { return m.work.begin(id, label, m.now()) }
func (m *Model) endWork(id string)                  { m.work.end(id) }
func (m *Model) endWorkPrefix(prefix string)        { m.work.endPrefix(prefix) }
func (m *Model) show(p pane)                        { m.setFocus(m.paneIndex(p)) }
func (m *Model) provider() string                   { return m.status.Provider }
func (m *Model) reloadPortfolio() tea.Cmd           { return m.portfolio.load() }

// goAndPress focuses p, then presses b there.
func (m *Model) goAndPress(p pane, b key.Binding) func() tea.Cmd {
	return func() tea.Cmd {
		m.setFocus(m.paneIndex(p))
		return press(p, b)
	}
}
