// Package attach serves the running core's TUI to terminals that attach to
// it, the way a tmux server serves its clients: the Bubble Tea program runs
// inside the core process, one per client, and reaches the client's terminal
// through SSH — on a unix socket in the data dir for `alice` / `alice attach`
// on this machine (same uid only, checked on the socket's peer credentials),
// and, when configured, on a TCP port for plain `ssh -p PORT host` (public-key
// auth against an authorized_keys file; no passwords). The client side
// (Attach) is a thin relay: raw mode, bytes both ways, window size changes.
package attach

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"github.com/creack/pty"

	"github.com/alice-trading/alice/config"
)

// Exit statuses a session ends with; the client tells them apart.
const (
	// ExitDetached: the client detached (or its terminal went away); the
	// core keeps running.
	ExitDetached = 0
	// ExitCoreStopping: the person quit alice from this client; the core
	// is shutting down.
	ExitCoreStopping = 100
	// ExitRefused: the server would not open a UI (too many clients, no
	// terminal).
	ExitRefused = 2
)

// Client describes one attached terminal.
type Client struct {
	ID     int
	User   string
	Remote string // "unix" for the local socket
	Term   string
	Width  int
	Height int
}

// UI is what the core builds for one client: the model, and what to do with
// the model the program ended with (Quit reports whether the person asked
// to stop the core).
type UI struct {
	Model tea.Model
	// Quit inspects the final model: true means "stop the core".
	Quit func(final tea.Model) bool
	// Close releases what the model holds (subscriptions).
	Close func()
	// Options are more options for the client's program (its escape
	// time).
	Options []tea.ProgramOption
}

// Options configure a Server.
type Options struct {
	// SocketPath is the unix socket (created 0600 in a 0700 directory).
	SocketPath string
	// HostKeyPath is the server's ed25519 host key (created if missing);
	// HostKeyPath+".pub" is written beside it for clients to pin.
	HostKeyPath string
	// TCPAddr, when not empty, also serves SSH on this TCP address with
	// public-key auth from AuthorizedKeysPath (refused when that file is
	// missing: no key, no login).
	TCPAddr            string
	AuthorizedKeysPath string
	// MaxClients bounds concurrent clients across both listeners (default 8).
	MaxClients int
	// NewUI builds the model for a client.
	NewUI func(ctx context.Context, c Client) (UI, error)
	// StopCore is called when a client quits alice (not on detach).
	StopCore func()
	Logger   *slog.Logger
	// Environ adds variables to every client program's environment.
	Environ []string
}

// Server serves the TUI on the configured listeners until Close.
type Server struct {
	opts      Options
	log       *slog.Logger
	servers   []*ssh.Server
	listeners []net.Listener
	sem       chan struct{}
	wg        sync.WaitGroup // Serve loops
	sessions  sync.WaitGroup // client programs
	closeOnce sync.Once

	mu      sync.Mutex
	closing bool
	nextID  int
	clients map[int]*clientState
	tcpAddr string
}

// clientState is one attached client and its program.
type clientState struct {
	info Client
	prog *tea.Program
}

// Listen opens the listeners and starts serving. The socket is usable when
// Listen returns.
func Listen(ctx context.Context, opts Options) (*Server, error) {
	if opts.MaxClients <= 0 {
		opts.MaxClients = 8
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.NewUI == nil {
		return nil, errors.New("attach: NewUI is required")
	}
	s := &Server{opts: opts, log: opts.Logger, sem: make(chan struct{}, opts.MaxClients), clients: map[int]*clientState{}}
	if opts.HostKeyPath == "" || opts.SocketPath == "" {
		return nil, errors.New("attach: HostKeyPath and SocketPath are required")
	}
	// Both live in owner-only directories (the same one in alice).
	for _, dir := range []string{filepath.Dir(opts.HostKeyPath), filepath.Dir(opts.SocketPath)} {
		if err := config.PrivateDir(dir, os.Getuid()); err != nil {
			return nil, fmt.Errorf("attach: %w", err)
		}
	}
	if err := ensureHostKey(opts.HostKeyPath); err != nil {
		return nil, err
	}
	// Everything that can fail happens before anything serves.
	if opts.TCPAddr != "" {
		if _, err := os.Stat(opts.AuthorizedKeysPath); err != nil {
			return nil, fmt.Errorf("attach: the SSH listener needs %s (public keys allowed to log in, one per line): %w", opts.AuthorizedKeysPath, err)
		}
	}
	local, err := wish.NewServer(
		wish.WithHostKeyPath(opts.HostKeyPath),
		ssh.WrapConn(samePeer(s.log)),
		ownPty,
		wish.WithMiddleware(s.middleware("unix")),
	)
	if err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	local.HandshakeTimeout = 10 * time.Second // a peer that never speaks SSH does not hold a goroutine
	var remote *ssh.Server
	if opts.TCPAddr != "" {
		// Public-key auth only: WithAuthorizedKeys installs the key
		// handler; nothing installs a password or keyboard handler.
		remote, err = wish.NewServer(
			wish.WithHostKeyPath(opts.HostKeyPath),
			wish.WithAuthorizedKeys(opts.AuthorizedKeysPath),
			ownPty,
			wish.WithMiddleware(s.middleware("tcp")),
		)
		if err != nil {
			return nil, fmt.Errorf("attach: %w", err)
		}
		remote.HandshakeTimeout = 10 * time.Second
	}
	ul, err := listenUnix(opts.SocketPath)
	if err != nil {
		return nil, err
	}
	var tl net.Listener
	if remote != nil {
		if tl, err = net.Listen("tcp", opts.TCPAddr); err != nil {
			ul.Close()
			_ = os.Remove(opts.SocketPath)
			return nil, fmt.Errorf("attach: ssh listener: %w", err)
		}
		s.tcpAddr = tl.Addr().String()
	}
	s.serve(local, ul)
	if remote != nil {
		s.serve(remote, tl)
	}
	go func() {
		<-ctx.Done()
		s.Close()
	}()
	return s, nil
}

func (s *Server) serve(srv *ssh.Server, l net.Listener) {
	s.servers = append(s.servers, srv)
	s.listeners = append(s.listeners, l)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := srv.Serve(l); err != nil && !errors.Is(err, ssh.ErrServerClosed) {
			s.log.Warn("attach listener stopped", "addr", l.Addr().String(), "err", err)
		}
	}()
}

// SocketPath is the local socket clients attach on.
func (s *Server) SocketPath() string { return s.opts.SocketPath }

// TCPAddr is the SSH listener's address ("" when off).
func (s *Server) TCPAddr() string { return s.tcpAddr }

// Clients lists the attached clients.
func (s *Server) Clients() []Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Client, 0, len(s.clients))
	for _, c := range s.clients {
		out = append(out, c.info)
	}
	return out
}

// Close stops the listeners, ends every client's program (each client is
// told the core is stopping) and removes the socket.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closing = true
		progs := make([]*tea.Program, 0, len(s.clients))
		for _, c := range s.clients {
			if c.prog != nil {
				progs = append(progs, c.prog)
			}
		}
		s.mu.Unlock()
		// Closing the listeners ourselves ends the Serve loops before the
		// servers are shut down (charm ssh races a Shutdown that overlaps
		// a Serve that is still starting).
		for _, l := range s.listeners {
			_ = l.Close()
		}
		s.wg.Wait()
		for _, p := range progs {
			p.Quit()
		}
		done := make(chan struct{})
		go func() { s.sessions.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
		for _, srv := range s.servers {
			_ = srv.Close()
		}
		_ = os.Remove(s.opts.SocketPath)
	})
	return nil
}

// middleware runs one Bubble Tea program per SSH session on a pty of our
// own: the program sees a real terminal (raw mode, Exec hand-over for
// full-screen workspace sessions) and the session carries its bytes.
func (s *Server) middleware(remote string) wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			// The session counts until its exit status is sent: Close
			// waits for that before it closes connections, so a client
			// always learns whether it detached or the core stopped.
			s.mu.Lock()
			if s.closing {
				s.mu.Unlock()
				fmt.Fprint(sess.Stderr(), "alice: the core is stopping\r\n")
				_ = sess.Exit(ExitCoreStopping)
				return
			}
			s.sessions.Add(1)
			s.mu.Unlock()
			defer s.sessions.Done()
			code := s.runSession(sess, remote)
			_ = sess.Exit(code)
			next(sess)
		}
	}
}

func (s *Server) runSession(sess ssh.Session, remote string) int {
	// Pty() reports ok only for charm's emulated or allocated ptys; ours
	// is recorded by ownPty, and the window changes arrive all the same.
	_, winch, _ := sess.Pty()
	ptyReq, ok := sess.Context().Value(ptyKey{}).(ssh.Pty)
	if !ok {
		fmt.Fprintln(sess.Stderr(), "alice: attach needs a terminal (ssh -t)")
		return ExitRefused
	}
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	default:
		fmt.Fprintf(sess.Stderr(), "alice: %d clients are attached already; detach one first\r\n", s.opts.MaxClients)
		return ExitRefused
	}
	if remote == "tcp" {
		remote = sess.RemoteAddr().String()
	}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return ExitCoreStopping
	}
	s.nextID++
	c := Client{ID: s.nextID, User: sess.User(), Remote: remote, Term: ptyReq.Term, Width: ptyReq.Window.Width, Height: ptyReq.Window.Height}
	st := &clientState{info: c}
	s.clients[c.ID] = st
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.clients, c.ID)
		s.mu.Unlock()
	}()
	s.log.Info("client attached", "client", c.ID, "remote", c.Remote, "user", c.User, "size", strconv.Itoa(c.Width)+"x"+strconv.Itoa(c.Height))
	defer s.log.Info("client detached", "client", c.ID)

	master, slave, err := pty.Open()
	if err != nil {
		fmt.Fprintf(sess.Stderr(), "alice: %v\r\n", err)
		return ExitRefused
	}
	_ = pty.Setsize(master, &pty.Winsize{Cols: uint16(max(c.Width, 1)), Rows: uint16(max(c.Height, 1))})

	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	ui, err := s.opts.NewUI(ctx, c)
	if err != nil {
		master.Close()
		slave.Close()
		fmt.Fprintf(sess.Stderr(), "alice: %v\r\n", err)
		return ExitRefused
	}
	env := append(append([]string{}, sess.Environ()...), s.opts.Environ...)
	env = append(env, "TERM="+ptyReq.Term)
	tty := ptyFile{File: slave, fd: slave.Fd()}
	prog := tea.NewProgram(ui.Model, append([]tea.ProgramOption{
		tea.WithInput(tty), tea.WithOutput(tty),
		tea.WithEnvironment(env),
		tea.WithWindowSize(c.Width, c.Height),
		tea.WithContext(ctx),
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			if _, ok := msg.(tea.SuspendMsg); ok { // never stop the server process
				return tea.ResumeMsg{}
			}
			return msg
		}),
	}, ui.Options...)...)

	if pm, ok := ui.Model.(patchable); ok {
		pm.SetPatcher(prog.Patch)
	}
	s.mu.Lock()
	st.prog = prog
	closing := s.closing
	s.mu.Unlock()
	if closing {
		prog.Quit()
	}
	var pumps sync.WaitGroup
	pumps.Add(2)
	go func() { // client keys → program
		defer pumps.Done()
		_, _ = copyBuf(master, sess)
	}()
	go func() { // program output → client
		defer pumps.Done()
		_, _ = copyBuf(sess, master)
	}()
	// Sizes reach the program through a one-slot mailbox that keeps only
	// the latest: Send blocks while a zoomed workspace session holds the
	// terminal (tea.Exec), and the pty and the zoomed session must follow
	// the client meanwhile.
	sizes := make(chan tea.WindowSizeMsg, 1)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case m := <-sizes:
				prog.Send(m)
			}
		}
	}()
	winchDone := make(chan struct{})
	go func() { // window changes follow the client
		defer close(winchDone)
		for {
			select {
			case <-ctx.Done():
				prog.Quit()
				if sess.Context().Err() != nil {
					// The client went away. A workspace session zoomed
					// into its terminal (tea.Exec) writes there and
					// never sees Quit: with nobody reading the pty its
					// writes block once the buffer fills, and so does
					// the session's output for every other client.
					// Hanging up the pty ends the zoom (its reads and
					// writes fail), so the program can quit.
					_ = master.Close()
				}
				return
			case w, ok := <-winch:
				if !ok {
					// The session's requests ended: the client is going
					// away, and its context ends next. Wait for that, so
					// the hang-up above still runs (returning here left a
					// zoom writing into a pty nobody reads).
					winch = nil
					continue
				}
				s.mu.Lock()
				changed := st.info.Width != w.Width || st.info.Height != w.Height
				st.info.Width, st.info.Height = w.Width, w.Height
				s.mu.Unlock()
				_ = pty.Setsize(master, &pty.Winsize{Cols: uint16(max(w.Width, 1)), Rows: uint16(max(w.Height, 1))})
				if changed {
					// A workspace session zoomed full-screen has the
					// terminal to itself and learns sizes from SIGWINCH,
					// which a core without a controlling terminal never
					// receives: raise it. Every listener re-reads the size
					// of its own tty.
					_ = syscall.Kill(os.Getpid(), syscall.SIGWINCH)
				}
				select {
				case <-sizes:
				default:
				}
				sizes <- tea.WindowSizeMsg{Width: w.Width, Height: w.Height}
			}
		}
	}()

	final, runErr := prog.Run()
	if runErr != nil && !errors.Is(runErr, tea.ErrProgramKilled) && ctx.Err() == nil {
		s.log.Warn("client program ended with an error", "client", c.ID, "err", runErr)
	}
	prog.Kill()
	cancel()
	<-winchDone // it resizes master: done before master closes
	if ui.Close != nil {
		ui.Close()
	}
	// The program has restored its terminal; let the last bytes reach the
	// client before the pty goes away.
	slave.Close()
	drainDone := make(chan struct{})
	go func() { pumps.Wait(); close(drainDone) }()
	select {
	case <-drainDone:
	case <-time.After(200 * time.Millisecond):
	}
	master.Close()
	s.mu.Lock()
	closing = s.closing
	s.mu.Unlock()
	if closing {
		return ExitCoreStopping
	}
	quit := runErr == nil && final != nil && ui.Quit != nil && ui.Quit(final)
	if quit && s.opts.StopCore != nil {
		s.log.Info("client quit alice: stopping the core", "client", c.ID)
		s.opts.StopCore()
		return ExitCoreStopping
	}
	return ExitDetached
}

// ptyKey holds a session's pty request in its context.
type ptyKey struct{}

// ownPty records a client's pty request and leaves the terminal to us:
// charm ssh's default emulation would turn every \n the renderer writes
// into \r\n (the renderer moves down with a bare LF in raw mode), and its
// AllocatePty would race us for the window-change channel.
func ownPty(srv *ssh.Server) error {
	srv.PtyHandler = func(ctx ssh.Context, _ ssh.Session, p ssh.Pty) (func() error, error) {
		ctx.SetValue(ptyKey{}, p)
		return func() error { return nil }, nil
	}
	return nil
}

// ptyFile is the program's terminal: the pty's slave with its descriptor
// read once, when the program is made. Bubble Tea reads Fd from goroutines
// it does not wait for (the size check after a zoom ends), and os.File's Fd
// races with the Close at the end of the session.
type ptyFile struct {
	*os.File
	fd uintptr
}

func (f ptyFile) Fd() uintptr { return f.fd }

// OSFile is the slave itself, for a program the TUI runs on its terminal
// (tea.ExecProcess: the chat's editor): exec.Cmd gives a child a
// descriptor only for an *os.File, and a pipe for anything else. The
// session cannot close it meanwhile: Close waits for the program, whose
// event loop is in that exec.
func (f ptyFile) OSFile() *os.File { return f.File }

// copyBuf is io.Copy with a buffer sized for full-screen frames.
func copyBuf(dst io.Writer, src io.Reader) (int64, error) {
	return io.CopyBuffer(dst, src, make([]byte, 64<<10))
}

// listenUnix creates the socket with owner-only permissions in an
// owner-only directory, replacing a stale socket file (the data dir's lock
// already guarantees no live core owns it).
func listenUnix(path string) (net.Listener, error) {
	if err := config.PrivateDir(filepath.Dir(path), os.Getuid()); err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("attach: %s exists and is not a socket; remove it", path)
		}
		_ = os.Remove(path)
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("attach: listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("attach: %w", err)
	}
	return l, nil
}

// patchable is a model that draws straight into its program's frame
// (tui.Model.SetPatcher: an attached session's echo).
type patchable interface {
	SetPatcher(func(tea.PatchDraw) bool)
}
