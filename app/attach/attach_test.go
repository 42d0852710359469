package attach

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/creack/pty"

	"github.com/alice-trading/alice/config"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"
)

// sizeModel shows the size it was given and ends on q (quit alice) or d
// (detach), the two ways a client leaves.
type sizeModel struct {
	w, h int
	quit bool
}

func (m *sizeModel) Init() tea.Cmd { return tea.Raw("RAW-A\nRAW-B") }
func (m *sizeModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyPressMsg:
		switch msg.String() {
		case "q":
			m.quit = true
			return m, tea.Quit
		case "d":
			return m, tea.Quit
		}
	}
	return m, nil
}
func (m *sizeModel) View() tea.View {
	return tea.NewView(fmt.Sprintf("size %dx%d\nline two", m.w, m.h))
}

// syncBuf is a goroutine-safe output buffer.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuf) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

type harness struct {
	dir     string
	srv     *Server
	stopped atomic.Int32
}

func startServer(t *testing.T, mut func(*Options)) *harness {
	t.Helper()
	h := &harness{dir: t.TempDir()}
	opts := Options{
		SocketPath:  filepath.Join(h.dir, "run", "alice.sock"),
		HostKeyPath: filepath.Join(h.dir, "run", "host_ed25519"),
		Logger:      slog.New(slog.NewTextHandler(io.Discard, nil)),
		StopCore:    func() { h.stopped.Add(1) },
		NewUI: func(ctx context.Context, c Client) (UI, error) {
			return UI{Model: &sizeModel{w: c.Width, h: c.Height}, Quit: func(final tea.Model) bool { return final.(*sizeModel).quit }}, nil
		},
	}
	if mut != nil {
		mut(&opts)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := Listen(ctx, opts)
	require.NoError(t, err)
	h.srv = srv
	t.Cleanup(func() { cancel(); _ = srv.Close() })
	return h
}

// client is one attached terminal on a pty of its own: keys are typed
// into the pty, what the core draws lands in out.
type client struct {
	tty, ctl *os.File
	out      *syncBuf
	done     chan Outcome
}

func attachClient(t *testing.T, h *harness, cols, rows int) *client {
	t.Helper()
	ctl, tty, err := pty.Open()
	require.NoError(t, err)
	require.NoError(t, pty.Setsize(ctl, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}))
	c := &client{tty: tty, ctl: ctl, out: &syncBuf{}, done: make(chan Outcome, 1)}
	go func() { _, _ = io.Copy(io.Discard, ctl) }() // nothing is echoed back to us; keep the pty drained
	go func() {
		o, err := Attach(context.Background(), h.srv.SocketPath(), filepath.Join(h.dir, "run", "host_ed25519"), Terminal{In: tty, Out: c.out, Term: "xterm-256color"})
		if err != nil && o != Lost {
			t.Errorf("attach: %v", err)
		}
		c.done <- o
	}()
	t.Cleanup(func() { ctl.Close(); tty.Close() })
	return c
}

func (c *client) waitFor(t *testing.T, text string) {
	t.Helper()
	require.Eventually(t, func() bool { return strings.Contains(c.out.String(), text) }, 30*time.Second, 10*time.Millisecond,
		"want %q on the client's screen; got %q", text, c.out.String())
}

func (c *client) end(t *testing.T) Outcome {
	t.Helper()
	select {
	case o := <-c.done:
		return o
	case <-time.After(30 * time.Second):
		t.Fatal("the client did not end")
		return Lost
	}
}

func TestDetachKeepsTheCoreAndQuitStopsIt(t *testing.T) {
	t.Parallel()
	h := startServer(t, nil)
	c := attachClient(t, h, 100, 30)
	c.waitFor(t, "size 100x30")
	require.Len(t, h.srv.Clients(), 1)
	_, _ = c.ctl.Write([]byte("d"))
	require.Equal(t, Detached, c.end(t))
	require.Zero(t, h.stopped.Load(), "detach never stops the core")
	require.Eventually(t, func() bool { return len(h.srv.Clients()) == 0 }, 30*time.Second, 10*time.Millisecond)

	c2 := attachClient(t, h, 80, 24)
	c2.waitFor(t, "size 80x24")
	_, _ = c2.ctl.Write([]byte("q"))
	require.Equal(t, CoreStopping, c2.end(t))
	require.EqualValues(t, 1, h.stopped.Load())
}

// A bare \n from the renderer must reach the client as \n: the program
// moves down with LF in raw mode, and a \r\n would shift the next line.
func TestOutputIsNotNewlineTranslated(t *testing.T) {
	t.Parallel()
	h := startServer(t, nil)
	c := attachClient(t, h, 60, 10)
	c.waitFor(t, "RAW-B")
	require.Contains(t, c.out.String(), "RAW-A\nRAW-B", "no CR inserted before a bare LF")
	_, _ = c.ctl.Write([]byte("d"))
	c.end(t)
}

func TestWindowChangesReachTheProgram(t *testing.T) {
	t.Parallel()
	h := startServer(t, nil)
	c := attachClient(t, h, 100, 30)
	c.waitFor(t, "size 100x30")
	require.NoError(t, pty.Setsize(c.ctl, &pty.Winsize{Cols: 140, Rows: 40}))
	// SIGWINCH goes to the foreground process group of the tty; this test
	// process is not it, so the client relays the change when signalled.
	p, _ := os.FindProcess(os.Getpid())
	require.Eventually(t, func() bool {
		_ = p.Signal(sigwinch)
		return strings.Contains(c.out.String(), "size 140x40")
	}, 30*time.Second, 50*time.Millisecond)
	_, _ = c.ctl.Write([]byte("d"))
	c.end(t)
}

func TestClientsAreBounded(t *testing.T) {
	t.Parallel()
	h := startServer(t, func(o *Options) { o.MaxClients = 1 })
	c := attachClient(t, h, 80, 24)
	c.waitFor(t, "size 80x24")
	c2 := attachClient(t, h, 80, 24)
	require.Equal(t, Refused, c2.end(t))
	require.Contains(t, c2.out.String(), "clients are attached already")
	_, _ = c.ctl.Write([]byte("d"))
	c.end(t)
}

func TestSocketIsOwnerOnly(t *testing.T) {
	t.Parallel()
	h := startServer(t, nil)
	fi, err := os.Stat(h.srv.SocketPath())
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	di, err := os.Stat(filepath.Dir(h.srv.SocketPath()))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o700), di.Mode().Perm())
	ki, err := os.Stat(filepath.Join(h.dir, "run", "host_ed25519"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), ki.Mode().Perm())
}

// The TCP listener admits the keys in authorized_keys and nobody else: no
// password, no keyboard-interactive, no unknown key.
func TestTCPListenerNeedsAnAuthorizedKey(t *testing.T) {
	t.Parallel()
	good, goodSigner := newKey(t)
	_, badSigner := newKey(t)
	dir := t.TempDir()
	ak := filepath.Join(dir, "authorized_keys")
	require.NoError(t, os.WriteFile(ak, gossh.MarshalAuthorizedKey(good), 0o600))
	h := startServer(t, func(o *Options) { o.TCPAddr = "127.0.0.1:0"; o.AuthorizedKeysPath = ak })
	addr := h.srv.TCPAddr()
	require.NotEmpty(t, addr)
	hostKey, err := HostPublicKey(filepath.Join(h.dir, "run", "host_ed25519"))
	require.NoError(t, err)

	dial := func(auth ...gossh.AuthMethod) error {
		c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "u", Auth: auth, HostKeyCallback: gossh.FixedHostKey(hostKey), Timeout: 30 * time.Second})
		if err == nil {
			c.Close()
		}
		return err
	}
	require.NoError(t, dial(gossh.PublicKeys(goodSigner)))
	require.Error(t, dial(gossh.PublicKeys(badSigner)), "an unknown key is refused")
	require.Error(t, dial(gossh.Password("alice")), "passwords are never accepted")
	require.Error(t, dial(), "no auth is refused")
}

func TestTCPListenerRefusesToStartWithoutAuthorizedKeys(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := Listen(context.Background(), Options{
		SocketPath: filepath.Join(dir, "a.sock"), HostKeyPath: filepath.Join(dir, "hk"),
		TCPAddr: "127.0.0.1:0", AuthorizedKeysPath: filepath.Join(dir, "missing"),
		NewUI: func(context.Context, Client) (UI, error) { return UI{}, nil },
	})
	require.ErrorContains(t, err, "public keys allowed to log in")
	_, statErr := os.Stat(filepath.Join(dir, "a.sock"))
	require.True(t, os.IsNotExist(statErr), "the socket is removed when start-up fails")
}

func newKey(t *testing.T) (gossh.PublicKey, gossh.Signer) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	s, err := gossh.NewSignerFromKey(priv)
	require.NoError(t, err)
	p, err := gossh.NewPublicKey(pub)
	require.NoError(t, err)
	return p, s
}

var sigwinch = syscall.SIGWINCH

// Quitting stops the core, whose shutdown closes the relay at once: the
// quitting client and every other client still learn that the core
// stopped (an exit status, never a dropped connection).
func TestQuitWithShutdownTellsEveryClient(t *testing.T) {
	t.Parallel()
	var h *harness
	h = startServer(t, func(o *Options) {
		o.StopCore = func() { go h.srv.Close() } // what the core's shutdown does
	})
	a := attachClient(t, h, 80, 24)
	a.waitFor(t, "size 80x24")
	b := attachClient(t, h, 100, 30)
	b.waitFor(t, "size 100x30")
	_, _ = a.ctl.Write([]byte("q"))
	require.Equal(t, CoreStopping, a.end(t))
	require.Equal(t, CoreStopping, b.end(t))
	_, err := os.Stat(h.srv.SocketPath())
	require.True(t, os.IsNotExist(err), "the socket goes with the relay")
}

// A data/attach left 0755 (by an older alice, a restore, a person) is
// tightened to 0700 at start; one owned by someone else is refused.
func TestAttachDirIsTightenedAndMustBeOurs(t *testing.T) {
	t.Parallel()
	h := startServer(t, func(o *Options) {
		dir := filepath.Dir(o.SocketPath)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.Chmod(dir, 0o755))
	})
	di, err := os.Stat(filepath.Dir(h.srv.SocketPath()))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o700), di.Mode().Perm())

	other := t.TempDir()
	err = config.PrivateDir(other, os.Getuid()+1)
	require.ErrorContains(t, err, "not owned by you")
	require.ErrorContains(t, err, other)
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(other, link))
	require.ErrorContains(t, config.PrivateDir(link, os.Getuid()), "not a directory")
}
