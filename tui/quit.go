package tui

import (
	"fmt"
	"net/url"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/alice-trading/alice/tui/kit"
)

// Quitting: ctrl+c (or q outside inputs) stops the core. A client
// attached to a core that outlives it (Options.Detachable, how `alice`
// runs) always asks first, naming what stops for every client (MCP ports,
// schedules, the heartbeat, Telegram, running work) and offering d or
// ctrl+z to detach instead. With --foreground alice quits at once when
// nothing runs, and asks when work, schedules or Telegram would stop.
// A second ctrl+c or y confirms, n/esc keeps alice running.

// quitDialog is the confirmation shown before quitting stops something.
type quitDialog struct {
	m       *Model
	running []string
}

// coreServices names what the core serves in the background: its MCP
// ports, enabled schedules, the heartbeat and the Telegram bot.
func (m *Model) coreServices() (listeners, background []string) {
	st := m.Status
	if p := port(st.MainMCP); p != "" {
		listeners = append(listeners, "MCP :"+p)
	}
	if p := port(st.AskMCP); p != "" {
		listeners = append(listeners, "Ask MCP :"+p)
	}
	switch {
	case st.Schedules == 1:
		background = append(background, "1 scheduled job")
	case st.Schedules > 1:
		background = append(background, fmt.Sprintf("%d scheduled jobs", st.Schedules))
	}
	if st.Heartbeat {
		background = append(background, "the heartbeat")
	}
	if st.TelegramBot {
		background = append(background, "the Telegram bot")
	}
	return listeners, background
}

// port is the ":PORT" of a listener URL, "" when it has none.
func port(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Port()
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
	listeners, background := m.coreServices()
	if !m.opts.Detachable && len(running) == 0 && len(background) == 0 {
		return m.quitNow()
	}
	var stops []string
	if len(listeners) > 0 {
		stops = append(stops, strings.Join(listeners, ", "))
	}
	if len(background) > 0 {
		stops = append(stops, strings.Join(background, ", "))
	}
	m.Palette, m.Help = nil, nil
	m.QuitDlg = &quitDialog{m: m, running: append(stops, running...)}
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
	case "d", "ctrl+z":
		if d.m.opts.Detachable {
			d.m.QuitDlg = nil
			return d.m.detach()
		}
	}
	return nil
}

func (d *quitDialog) view() string {
	s := d.m.St
	var b strings.Builder
	b.WriteString(s.Warn.Render("Quit alice?") + "\n\n")
	if d.m.opts.Detachable {
		b.WriteString("This stops the core for all clients:\n")
	} else {
		b.WriteString("This stops:\n")
	}
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
		hint += " · d or ctrl+z detach instead (all of it keeps running)"
	}
	b.WriteString("\n" + s.Muted.Render(hint))
	return d.m.dialogBox(b.String())
}
