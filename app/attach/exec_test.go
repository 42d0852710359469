package attach

import (
	"context"
	"fmt"
	"os/exec"
	"testing"

	tea "charm.land/bubbletea/v2"
)

type execDoneMsg struct{ err error }

// execModel runs a program on its terminal on e, as the chat's ctrl+e runs
// the person's editor (tea.ExecProcess).
type execModel struct {
	sizeModel
	status string
}

func (m *execModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "e" {
			cmd := exec.Command("sh", "-c", `if [ -t 0 ] && [ -t 1 ]; then echo RAN-ON-A-TERMINAL; else echo RAN-WITHOUT-A-TERMINAL; fi`)
			return m, tea.ExecProcess(cmd, func(err error) tea.Msg { return execDoneMsg{err} })
		}
	case execDoneMsg:
		m.status = fmt.Sprintf("exec returned (%v)", msg.err)
		return m, nil
	}
	_, cmd := m.sizeModel.Update(msg)
	return m, cmd
}

func (m *execModel) View() tea.View { return tea.NewView("ready for e; " + m.status) }

// A program the TUI runs on the client's terminal (the chat's ctrl+e
// editor) gets that terminal as its stdin and stdout, and the TUI has its
// terminal back once it exits. The program's terminal is the attach pty
// behind a wrapper; exec.Cmd gave anything but an *os.File a pipe and a
// goroutine copying the terminal into it: vim warned "Input is not from a
// terminal", and after it quit that goroutine went on reading the pty
// (restored to cooked mode) until the next Enter, so the UI hung.
func TestExecProcessGetsTheClientsTerminal(t *testing.T) {
	t.Parallel()
	h := startServer(t, func(o *Options) {
		o.NewUI = func(ctx context.Context, c Client) (UI, error) {
			return UI{Model: &execModel{sizeModel: sizeModel{w: c.Width, h: c.Height}}}, nil
		}
	})
	c := attachClient(t, h, 80, 24)
	t.Cleanup(func() {
		if t.Failed() { // an Enter ends a read of the pty left in cooked mode
			_, _ = c.ctl.Write([]byte("\r"))
		}
	})
	c.waitFor(t, "ready for e")
	_, _ = c.ctl.Write([]byte("e"))
	c.waitFor(t, "exec returned (<nil>)")
	c.waitFor(t, "RAN-ON-A-TERMINAL")
	_, _ = c.ctl.Write([]byte("d"))
	c.end(t)
}
