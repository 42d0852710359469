package workspace

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/alice-trading/alice/core/proctree"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/creack/pty"
)

// SessionState is where a session's process is in its life.
type SessionState string

// Session states.
const (
	StateStarting   SessionState = "starting"
	StateRunning    SessionState = "running"
	StateRestarting SessionState = "restarting" // crashed, respawning after RespawnDelay
	StateExited     SessionState = "exited"     // the child exited cleanly (code 0); Restart to run again
	StateStopped    SessionState = "stopped"    // stopped by the user or by Close
	StateFailed     SessionState = "failed"     // circuit open: too many crashes, or it cannot start
)

// Crash policy: more than maxCrashes crashes within crashWindow opens the
// circuit (the reference's numbers).
const (
	maxCrashes  = 3
	crashWindow = 30 * time.Second
	killGrace   = 2 * time.Second
)

// ErrSessionNotRunning is returned for input to a session without a process.
var ErrSessionNotRunning = errors.New("session is not running")

// Session is one agent process in a pty with its terminal emulator. It
// survives crashes (respawn) and keeps its screen across respawns.
type Session struct {
	id, name string
	agent    Agent
	ws       Workspace
	m        *Manager
	term     *Terminal
	replay   *replayBuffer
	created  time.Time

	mu       sync.Mutex
	state    SessionState
	reason   string
	hint     *ResumeHint
	cmd      *exec.Cmd
	ptmx     *os.File
	exited   bool            // cmd has been reaped
	tag      string          // cmd's proctree tag (process.go)
	below    []proctree.Proc // recorded below cmd by Stop (process.go)
	cols     int
	rows     int
	crashes  []time.Time
	stopping bool
	stopCh   chan struct{}
	done     chan struct{} // closed when the supervisor goroutine ends
	closed   bool

	sinkMu sync.Mutex
	// resizeMu orders resizes (resize).
	resizeMu sync.Mutex
	sink     io.Writer // full-screen attach output, fed by the pump

	// fedMu guards queued and fed: the output bytes handed to the feeder
	// and the ones the emulator has taken in, so a zoom can wait until
	// the emulator shows what the terminal was sent (waitFed).
	fedMu  sync.Mutex
	fedC   *sync.Cond
	queued int64
	fed    int64

	obs observers
	// fedHook is called after each output batch reached the emulator (the
	// status hub marks the screen for its rules); nil when none.
	fedHook atomic.Pointer[func()]
	// watched counts the people looking at the session (SetWatched): its
	// output is read at once, a background session's in batches.
	watched atomic.Int32
}

// onFed registers fn to run on the feeder after each batch the emulator
// took in; cancel unregisters it. One hook at a time.
func (s *Session) onFed(fn func()) (cancel func()) {
	p := &fn
	s.fedHook.Store(p)
	return func() { s.fedHook.CompareAndSwap(p, nil) }
}

func (s *Session) setSink(w io.Writer) {
	s.sinkMu.Lock()
	s.sink = w
	s.sinkMu.Unlock()
}

// noteQueued and noteFed count output bytes into the feeder and out of it
// into the emulator.
func (s *Session) noteQueued(n int) {
	s.fedMu.Lock()
	s.queued += int64(n)
	s.fedMu.Unlock()
}

func (s *Session) noteFed(n int) {
	s.fedMu.Lock()
	s.fed += int64(n)
	s.fedMu.Unlock()
	s.fedCond().Broadcast()
}

func (s *Session) fedCond() *sync.Cond {
	s.fedMu.Lock()
	defer s.fedMu.Unlock()
	if s.fedC == nil {
		s.fedC = sync.NewCond(&s.fedMu)
	}
	return s.fedC
}

// waitFed blocks until the emulator has taken in every byte queued so
// far, or d has passed (a feeder that stopped).
func (s *Session) waitFed(d time.Duration) {
	c := s.fedCond()
	expired := false
	stop := time.AfterFunc(d, func() {
		s.fedMu.Lock()
		expired = true
		s.fedMu.Unlock()
		c.Broadcast()
	})
	defer stop.Stop()
	s.fedMu.Lock()
	for s.fed < s.queued && !expired {
		c.Wait()
	}
	s.fedMu.Unlock()
}

// ID is the session record id (stable across restarts of alice).
func (s *Session) ID() string { return s.id }

// Name is the short display name: c1, x2, sh1.
func (s *Session) Name() string { return s.name }

// Agent is the program the session runs.
func (s *Session) Agent() Agent { return s.agent }

// WorkspaceID is the owning workspace.
func (s *Session) WorkspaceID() string { return s.ws.ID }

// State returns the state and, for failed/restarting/exited, why.
func (s *Session) State() (SessionState, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state, s.reason
}

// PID is the current child's pid, 0 when none.
func (s *Session) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil || s.cmd.Process == nil || s.exited {
		return 0
	}
	return s.cmd.Process.Pid
}

// Terminal exposes the emulator (Render, String, Cursor, Scrollback…).
func (s *Session) Terminal() *Terminal { return s.term }

// Render returns the live screen as an ANSI string for a TUI pane.
func (s *Session) Render() string { return s.term.Render() }

// Frame returns the screen and the cursor read together (Terminal.Frame).
func (s *Session) Frame() (screen string, x, y int, visible bool) { return s.term.Frame() }

// PatchCells copies the screen's changed rows into the frame of the
// window showing it (Terminal.PatchCells).
func (s *Session) PatchCells(dst *uv.RenderBuffer, x0, y0, cols, rows int) (x, y int, visible, ok bool) {
	return s.term.PatchCells(dst, x0, y0, cols, rows)
}

// Screen returns the live screen as plain text.
func (s *Session) Screen() string { return s.term.String() }

// Cursor returns the cursor position within the screen and its visibility.
func (s *Session) Cursor() (x, y int, visible bool) { return s.term.Cursor() }

// Subscribe returns one reader's nudges (coalesced) when the screen or
// state changed, and the call that ends them (Terminal.Subscribe).
func (s *Session) Subscribe() (<-chan struct{}, func()) { return s.term.Subscribe() }

// SendKey forwards a decoded key press (Esc included).
func (s *Session) SendKey(k KeyPress) { s.term.SendKey(k) }

// SendText sends typed text as it is (Terminal.SendText).
func (s *Session) SendText(b []byte) bool { return s.term.SendText(b) }

// Paste sends text, bracketed when the child asked for bracketed paste.
func (s *Session) Paste(text string) { s.term.Paste(text) }

// Replay returns the last raw pty output (up to 512 KiB), oldest first.
func (s *Session) Replay() []byte { return s.replay.Bytes() }

// Write sends raw bytes to the child's pty (the raw input path). Input is
// ordered with SendKey and Paste.
func (s *Session) Write(p []byte) (int, error) {
	s.mu.Lock()
	running := s.ptmx != nil
	s.mu.Unlock()
	if !running {
		return 0, ErrSessionNotRunning
	}
	if err := s.term.SendRaw(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Resize sets the pty and emulator size (clamped to at least 20×5).
func (s *Session) Resize(cols, rows int) { s.resize(cols, rows) }

// resize is Resize, reporting whether the size changed.
//
// The emulator is resized before the pty, as tmux resizes its grid before
// it tells the pty: the program redraws as soon as it learns the new size,
// and that redraw fed to an emulator still at the old size was cut by the
// resize that followed (a zoomed less after two quick resizes showed its
// old screen reflowed, once the zoom repainted from the emulator).
// resizeMu keeps concurrent resizes (two clients) whole and in order.
func (s *Session) resize(cols, rows int) bool {
	cols, rows = clampSize(cols, rows)
	s.resizeMu.Lock()
	defer s.resizeMu.Unlock()
	s.mu.Lock()
	if cols == s.cols && rows == s.rows {
		s.mu.Unlock()
		return false
	}
	s.cols, s.rows = cols, rows
	s.mu.Unlock()
	s.term.Resize(cols, rows)
	// Under s.mu, like the spawn's own check: the pty ends at the last
	// size asked for, whichever of the two sets it last.
	s.mu.Lock()
	if s.ptmx != nil {
		_ = pty.Setsize(s.ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	}
	s.mu.Unlock()
	return true
}

func (s *Session) setState(st SessionState, reason string) {
	s.mu.Lock()
	s.state, s.reason = st, reason
	s.mu.Unlock()
	s.term.nudge()
	s.m.sessionChanged(s)
}

// start launches the supervisor; resume says the first spawn resumes.
// It refuses a closed session: a close racing a restart must not start a
// process whose screen is already gone.
func (s *Session) start(resume bool) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errSessionClosed
	}
	s.stopping = false
	s.crashes = nil
	s.stopCh = make(chan struct{})
	s.done = make(chan struct{})
	stopCh, done := s.stopCh, s.done
	s.mu.Unlock()
	s.setState(StateStarting, "")
	if note := s.m.unsandboxedNote(); note != "" {
		s.term.Feed([]byte("\x1b[2m[alice: " + note + "]\x1b[m\r\n"))
	}
	go s.supervise(resume, stopCh, done)
	return nil
}

var errSessionClosed = errors.New("session is closed")

// supervise runs the child, respawning it after a crash until the circuit
// opens or the session is stopped.
func (s *Session) supervise(resume bool, stopCh, done chan struct{}) {
	defer close(done)
	for {
		code, err := s.runOnce(resume)
		s.mu.Lock()
		stopping := s.stopping
		s.mu.Unlock()
		switch {
		case stopping:
			s.setState(StateStopped, "")
			return
		case err != nil:
			s.setState(StateFailed, err.Error())
			return
		case code == 0:
			s.term.Feed([]byte("\r\n\x1b[2m[alice: process exited]\x1b[m\r\n"))
			s.setState(StateExited, "process exited with status 0")
			return
		}
		now := time.Now()
		s.mu.Lock()
		kept := s.crashes[:0]
		for _, t := range s.crashes {
			if now.Sub(t) < crashWindow {
				kept = append(kept, t)
			}
		}
		s.crashes = append(kept, now)
		n := len(s.crashes)
		s.mu.Unlock()
		reason := fmt.Sprintf("process exited with status %d", code)
		if n > maxCrashes {
			s.term.Feed([]byte(fmt.Sprintf("\r\n\x1b[31m[alice: %s; crashed %d times in %s, not restarting]\x1b[m\r\n", reason, n, crashWindow)))
			s.setState(StateFailed, fmt.Sprintf("%s; %d crashes in %s (circuit open)", reason, n, crashWindow))
			return
		}
		s.term.Feed([]byte(fmt.Sprintf("\r\n\x1b[33m[alice: %s; restarting]\x1b[m\r\n", reason)))
		s.setState(StateRestarting, reason)
		t := time.NewTimer(s.m.opts.RespawnDelay)
		select {
		case <-stopCh:
			t.Stop()
			s.setState(StateStopped, "")
			return
		case <-t.C:
		}
		resume = true
	}
}

// runOnce spawns one child and blocks until it exits and its output is
// drained. It returns the exit code (-1 for a signal) or a spawn error.
func (s *Session) runOnce(resume bool) (int, error) {
	s.mu.Lock()
	hint := s.hint
	cols, rows := s.cols, s.rows
	if s.stopping {
		s.mu.Unlock()
		return 0, nil
	}
	s.mu.Unlock()
	l, err := s.m.commandFor(s.agent, s.ws, hint, resume)
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(l.path, l.args...)
	cmd.Dir = s.ws.Dir
	cmd.Env = append(s.m.sessionEnv(s.ws), l.env...)
	tag := proctree.TagCommand(cmd)
	if err := s.m.sandboxCmd(cmd, s.ws); err != nil {
		return 0, err
	}
	// pty.Start makes the child a session leader (Setsid), so its pid is a
	// process group id and the whole tree can be signalled at once.
	ptmx, err := startOnPTY(cmd, cols, rows)
	if err != nil {
		return 0, fmt.Errorf("start %s: %w", l.path, err)
	}
	pumpDone := make(chan struct{})
	go s.pump(ptmx, pumpDone)
	s.term.SetOutput(ptmx)
	s.mu.Lock()
	s.cmd, s.ptmx, s.exited, s.tag, s.below = cmd, ptmx, false, tag, nil
	if s.cols != cols || s.rows != rows {
		// Resized while the child was starting: Resize saw no pty yet.
		_ = pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(s.cols), Rows: uint16(s.rows)})
	}
	stopping := s.stopping
	s.mu.Unlock()
	if stopping { // Stop raced with the spawn
		s.signalSpawn(syscall.SIGKILL)
	}
	s.setState(StateRunning, "")
	s.m.log.Info("workspace session started", "ws", s.ws.ID, "session", s.name, "pid", cmd.Process.Pid, "cmd", l.path, "sandboxed", s.m.Sandbox().On)

	werr := cmd.Wait()
	s.mu.Lock()
	left := spawnProcs{leader: cmd.Process.Pid, tag: tag, below: s.below}
	s.exited, s.below = true, nil
	s.mu.Unlock()
	endLeftovers(left)
	// Let the pump drain what the child wrote before it exited, then close
	// the master (which also ends the pump if a grandchild holds the slave).
	select {
	case <-pumpDone:
	case <-time.After(300 * time.Millisecond):
	}
	s.term.SetOutput(nil)
	s.mu.Lock()
	s.ptmx = nil
	s.mu.Unlock()
	_ = ptmx.Close()
	select {
	case <-pumpDone:
	case <-time.After(killGrace):
		// Only when a process that left the session still holds the pty
		// slave: the blocked read ends when that process closes it.
		s.m.log.Warn("workspace session: pty reader still blocked after close", "session", s.name)
	}

	code := 0
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		code = ee.ExitCode()
	} else if werr != nil {
		code = -1
	}
	s.m.log.Info("workspace session process exited", "ws", s.ws.ID, "session", s.name, "code", code)
	return code, nil
}

// pump is the single reader of the pty. It never waits on the emulator or
// the UI: each read goes to the observers, the replay ring and the zoom
// sink, then is appended to a queue the feeder drains in whole batches
// (so the emulator sees few large writes, which the coalescer turns into
// one screenful each). Only when maxQueued bytes are waiting does the
// reader pause, which bounds memory.
func (s *Session) pump(ptmx *os.File, done chan struct{}) {
	q := newFeedQueue()
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		for {
			batch, ok := q.take()
			if len(batch) > 0 {
				s.feed(batch)
				q.release()
			}
			if !ok {
				return
			}
		}
	}()
	defer func() {
		q.close()
		<-fed
		close(done)
	}()
	buf := make([]byte, 64*1024)
	var bulkUntil time.Time
	for {
		n, err := ptmx.Read(buf)
		shown := true
		if n > 0 {
			p := buf[:n]
			s.observe(p)
			_, _ = s.replay.Write(p)
			// Queued before the zoom sink sees it, so the sink can wait
			// for the emulator to have it (a zoomed program switching
			// screens is repainted from the emulator). The sink's lock
			// is held from here to the sink's write, so a repaint under
			// it (repaintSink) finds every queued byte written to the
			// terminal too. A small read of a session a person looks at
			// (an echo) is fed here when the feeder is idle: one
			// goroutine hop less before it is drawn.
			s.sinkMu.Lock()
			s.noteQueued(len(p))
			direct := n < burstBytes && s.watched.Load() > 0 && q.tryDirect()
			if direct {
				s.feed(p)
				q.release()
			} else {
				q.put(p)
			}
			if s.sink != nil {
				_, _ = s.sink.Write(p)
			}
			shown = s.sink != nil || s.watched.Load() > 0
			s.sinkMu.Unlock()
			if direct {
				// The redraw waiting for this change runs now, not
				// after this goroutine's next read parks it: the
				// echo's hand-off to the watcher went from 30 µs
				// (p50) to 2.
				runtime.Gosched()
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) && !errors.Is(err, syscall.EIO) {
				s.m.log.Debug("workspace session pty read ended", "session", s.name, "err", err)
			}
			return
		}
		if !shown {
			lingerBackground(n, &bulkUntil)
		}
	}
}

// feed hands a batch to the emulator and tells who waits for it.
func (s *Session) feed(p []byte) {
	s.term.Feed(p)
	s.noteFed(len(p))
	if f := s.fedHook.Load(); f != nil {
		(*f)()
	}
}

// Background reads. A session nobody looks at (not attached, not zoomed,
// not in a dialog) is read in batches: after a small read the reader waits
// backgroundLinger, so a chatty child's lines gather in the pty and cost
// one read, one feed and one screen update per window instead of one per
// line. A read that comes back nearly full (the pty hands out at most
// about 4 KiB at a time) marks a bulk writer, which is read without
// pauses for bulkHold (its other reads are small only because the reader
// keeps up); without the hold a background cat would run at a few MB/s.
const (
	backgroundLinger = 40 * time.Millisecond
	bulkHold         = 250 * time.Millisecond
	smallRead        = 1 << 10
	fullRead         = 3 << 10
)

func lingerBackground(n int, bulkUntil *time.Time) {
	now := time.Now()
	switch {
	case n >= fullRead:
		*bulkUntil = now.Add(bulkHold)
	case n < smallRead && now.After(*bulkUntil):
		time.Sleep(backgroundLinger)
	}
}

// Stop ends the process tree — the process group, the terminal session,
// every process below the child and every process carrying its tag
// (process.go): SIGHUP+SIGTERM, SIGKILL after 2 s — and waits for it. The
// session can be started again with Restart.
func (s *Session) Stop() {
	s.mu.Lock()
	if s.done == nil {
		s.mu.Unlock()
		return
	}
	done := s.done
	if !s.stopping {
		s.stopping = true
		close(s.stopCh)
	}
	s.mu.Unlock()
	s.recordBelow()
	s.signalSpawn(syscall.SIGHUP)
	s.signalSpawn(syscall.SIGTERM)
	select {
	case <-done:
		return
	case <-time.After(killGrace):
	}
	s.signalSpawn(syscall.SIGKILL)
	<-done
}

// Restart stops the process (if any) and starts it again, resuming the
// agent's conversation where the agent supports it. It also closes an open
// circuit.
func (s *Session) Restart() error {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return errSessionClosed
	}
	s.Stop()
	return s.start(true)
}

// close stops the process and the emulator for good.
func (s *Session) close() {
	// Mark closed first: a racing Restart either sees it and refuses, or
	// started before it and its process is stopped here.
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.Stop()
	s.term.Close()
}
