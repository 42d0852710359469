package tea

import (
	"io"
	"os"
	"os/exec"
	"time"
)

// execMsg is used internally to run an ExecCommand sent with Exec.
type execMsg struct {
	cmd ExecCommand
	fn  ExecCallback
}

// Exec is used to perform arbitrary I/O in a blocking fashion, effectively
// pausing the Program while execution is running and resuming it when
// execution has completed.
//
// Most of the time you'll want to use ExecProcess, which runs an exec.Cmd.
//
// For non-interactive i/o you should use a Cmd (that is, a tea.Cmd).
func Exec(c ExecCommand, fn ExecCallback) Cmd {
	return func() Msg {
		return execMsg{cmd: c, fn: fn}
	}
}

// ExecProcess runs the given *exec.Cmd in a blocking fashion, effectively
// pausing the Program while the command is running. After the *exec.Cmd exists
// the Program resumes. It's useful for spawning other interactive applications
// such as editors and shells from within a Program.
//
// To produce the command, pass an *exec.Cmd and a function which returns
// a message containing the error which may have occurred when running the
// ExecCommand.
//
//	type VimFinishedMsg struct { err error }
//
//	c := exec.Command("vim", "file.txt")
//
//	cmd := ExecProcess(c, func(err error) Msg {
//	    return VimFinishedMsg{err: err}
//	})
//
// Or, if you don't care about errors, you could simply:
//
//	cmd := ExecProcess(exec.Command("vim", "file.txt"), nil)
//
// For non-interactive i/o you should use a Cmd (that is, a tea.Cmd).
func ExecProcess(c *exec.Cmd, fn ExecCallback) Cmd {
	return Exec(wrapExecCommand(c), fn)
}

// ExecCallback is used when executing an *exec.Command to return a message
// with an error, which may or may not be nil.
type ExecCallback func(error) Msg

// ExecCommand can be implemented to execute things in a blocking fashion in
// the current terminal.
type ExecCommand interface {
	Run() error
	SetStdin(io.Reader)
	SetStdout(io.Writer)
	SetStderr(io.Writer)
}

// wrapExecCommand wraps an exec.Cmd so that it satisfies the ExecCommand
// interface so it can be used with Exec.
func wrapExecCommand(c *exec.Cmd) ExecCommand {
	return &osExecCommand{Cmd: c}
}

// osExecCommand is a layer over an exec.Cmd that satisfies the ExecCommand
// interface.
type osExecCommand struct{ *exec.Cmd }

// osFiler is a terminal that wraps the *os.File it reads and writes
// (alice: the attach server's pty, which hands out its descriptor read
// once).
type osFiler interface{ OSFile() *os.File }

// SetStdin sets stdin on underlying exec.Cmd to the given io.Reader.
func (c *osExecCommand) SetStdin(r io.Reader) {
	// If unset, have the command use the same input as the terminal.
	if c.Stdin == nil {
		c.Stdin = r
		// exec.Cmd hands only an *os.File to the child as its descriptor;
		// anything else gets a pipe and a goroutine copying into it, so
		// the command saw no terminal and, after it exited, Run waited for
		// that goroutine's read of the terminal (until the next Enter).
		if f, ok := r.(osFiler); ok {
			c.Stdin = f.OSFile()
		}
	}
}

// SetStdout sets stdout on underlying exec.Cmd to the given io.Writer.
func (c *osExecCommand) SetStdout(w io.Writer) {
	// If unset, have the command use the same output as the terminal.
	if c.Stdout == nil {
		c.Stdout = w
		if f, ok := w.(osFiler); ok { // the terminal itself, as for stdin
			c.Stdout = f.OSFile()
		}
	}
}

// SetStderr sets stderr on the underlying exec.Cmd to the given io.Writer.
func (c *osExecCommand) SetStderr(w io.Writer) {
	// If unset, use stderr for the command's stderr
	if c.Stderr == nil {
		c.Stderr = w
	}
}

// exec runs an ExecCommand and returns the callback's message (nil without
// a callback), which the event loop updates the model with at once (alice
// patch): it was sent from a goroutine after the input reader restarted,
// so a key typed as the command ended (in a burst, the key after the one
// that ended it) could reach the model before the message saying it had
// ended, and be handled in the state from before the command.
func (p *Program) exec(c ExecCommand, fn ExecCallback) Msg {
	result := func(err error) Msg {
		if fn == nil {
			return nil
		}
		return fn(err)
	}
	if err := p.releaseTerminal(false); err != nil {
		// If we can't release input, abort.
		return result(err)
	}

	c.SetStdin(p.input)
	c.SetStdout(p.output)
	c.SetStderr(os.Stderr)

	// Execute system command.
	if err := c.Run(); err != nil {
		_ = p.RestoreTerminal() // also try to restore the terminal.
		return result(err)
	}

	// Have the program re-capture input.
	return result(p.RestoreTerminal())
}

// loopsOwn reports whether the event loop acts on msg itself before (or
// instead of) the model's Update: an ExecCommand's callback returning one
// goes round the loop as before rather than straight to Update.
func loopsOwn(msg Msg) bool {
	switch msg.(type) {
	case QuitMsg, InterruptMsg, SuspendMsg, CapabilityMsg, ModeReportMsg, MouseMsg,
		readClipboardMsg, setClipboardMsg, readPrimaryClipboardMsg, setPrimaryClipboardMsg,
		backgroundColorMsg, foregroundColorMsg, cursorColorMsg, programStatusSupportMsg,
		execMsg, terminalVersion, requestCapabilityMsg, BatchMsg, sequenceMsg,
		WindowSizeMsg, windowSizeMsg, requestCursorPosMsg, RawMsg, printLineMessage,
		clearScreenMsg, ColorProfileMsg:
		return true
	}
	return false
}

// drainInput stops the input reader and returns the messages it still had
// to deliver (and whatever else arrived meanwhile), in order, once it has
// ended (alice patch). A command that takes the terminal (exec) used to
// wait up to half a second for the reader while the reader waited for the
// event loop to take its last events: keys typed just before the command
// started reached the model after it ended, behind keys typed during it.
// The event loop now hands the model those messages before the command
// runs.
func (p *Program) drainInput() []Msg {
	if p.cancelReader == nil || p.readLoopDone == nil {
		return nil
	}
	select {
	case <-p.readLoopDone:
		return nil
	default:
	}
	p.cancelReader.Cancel()
	var read []Msg
	limit := time.NewTimer(readLoopWait)
	defer limit.Stop()
	for {
		select {
		case <-p.readLoopDone:
			return read
		case m := <-p.msgs:
			read = append(read, m)
		case <-limit.C:
			return read
		}
	}
}
