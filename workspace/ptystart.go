package workspace

import (
	"os"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
)

// startOnPTY starts cmd on a new pty of cols×rows as the leader of its
// own session with the pty as its controlling terminal, and returns the
// master. It is pty.StartWithSize, plus one thing: before the child
// starts, the terminal is marked UTF-8 (utf8Input), as tmux marks its
// panes, so the line discipline's Backspace removes a whole character
// (`aé` then Backspace left `a\303` for `head -1`, `read` or Python's
// input()).
func startOnPTY(cmd *exec.Cmd, cols, rows int) (*os.File, error) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		return nil, err
	}
	defer func() { _ = tty.Close() }()
	utf8Input(tty)
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		_ = ptmx.Close()
		return nil, err
	}
	if cmd.Stdin == nil {
		cmd.Stdin = tty
	}
	if cmd.Stdout == nil {
		cmd.Stdout = tty
	}
	if cmd.Stderr == nil {
		cmd.Stderr = tty
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid, cmd.SysProcAttr.Setctty = true, true
	if err := cmd.Start(); err != nil {
		_ = ptmx.Close()
		return nil, err
	}
	return ptmx, nil
}
