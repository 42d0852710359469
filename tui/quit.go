package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/alice-trading/alice/tui/kit"
)

// Quitting: ctrl+c (or q outside inputs) quits at once when nothing is
// running; otherwise it asks, naming what will stop. A second ctrl+c or y
// confirms, n/esc keeps alice running. No grace period here: the worst a
// stray key can do is keep the app open or close it as asked twice.

// quitDialog is the confirmation shown when work would be stopped.
type quitDialog struct {
	m       *Model
	running []string
}

// RunningWork names what quitting would stop: a reply being written and
// the live workspace sessions.
func (m *Model) RunningWork() []string {
	var out []string
	if m.Chat.Busy {
		out = append(out, "Alice's reply in "+m.Chat.Session)
	}
	for _, w := range m.Workspaces.List {
		for _, s := range w.Sessions {
			// "sh1 running": a live process unless it has ended.
			f := strings.Fields(s)
			if len(f) < 2 {
				continue
			}
			switch f[len(f)-1] {
			case "exited", "stopped", "failed":
				continue
			}
			out = append(out, fmt.Sprintf("%s in workspace %s", strings.Join(f[:len(f)-1], " "), w.Tag))
		}
	}
	return out
}

func (m *Model) requestQuit() tea.Cmd {
	running := m.RunningWork()
	if len(running) == 0 {
		return m.quitNow()
	}
	m.Palette, m.Help = nil, nil
	m.QuitDlg = &quitDialog{m: m, running: running}
	return nil
}

func (m *Model) quitNow() tea.Cmd {
	m.quitRequested = true
	m.cancel(nil)
	return tea.Quit
}

// detach ends this client only: the core, its MCP ports, schedules and
// workspace sessions keep running (Options.Detachable).
func (m *Model) detach() tea.Cmd {
	m.cancel(kit.ErrDetached)
	return tea.Quit
}

// QuitRequested reports whether the person quit alice (as opposed to
// detaching or losing the terminal): the core then stops too.
func (m *Model) QuitRequested() bool { return m.quitRequested }

func (d *quitDialog) handle(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "y", "Y", "ctrl+c", "enter":
		d.m.QuitDlg = nil
		return d.m.quitNow()
	case "n", "N", "esc", "q":
		d.m.QuitDlg = nil
	}
	return nil
}

func (d *quitDialog) view() string {
	s := d.m.St
	var b strings.Builder
	b.WriteString(s.Warn.Render("Quit alice?") + "\n\nThis stops:\n")
	const maxShown = 8
	for i, r := range d.running {
		if i == maxShown {
			fmt.Fprintf(&b, "  … and %d more\n", len(d.running)-maxShown)
			break
		}
		b.WriteString("  • " + r + "\n")
	}
	hint := "y or ctrl+c quit · n/esc keep running"
	if d.m.opts.Detachable {
		hint += " · ctrl+z detach instead (all of it keeps running)"
	}
	b.WriteString("\n" + s.Muted.Render(hint))
	return d.m.dialogBox(b.String())
}
