package attach

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"
)

// floodCmd stands in for a zoomed workspace session (tea.Exec): it owns
// the client's terminal, writes output to it without pause and reads its
// keys, until either fails.
type floodCmd struct {
	in      io.Reader
	out     io.Writer
	started chan struct{}
	ended   chan error
}

func (f *floodCmd) SetStdin(r io.Reader)  { f.in = r }
func (f *floodCmd) SetStdout(w io.Writer) { f.out = w }
func (f *floodCmd) SetStderr(io.Writer)   {}
func (f *floodCmd) Run() error {
	readErr := make(chan error, 1)
	go func() {
		buf := make([]byte, 256)
		for {
			if _, err := f.in.Read(buf); err != nil {
				readErr <- err
				return
			}
		}
	}()
	line := []byte(strings.Repeat("flood ", 13) + "\r\n")
	for i := 0; ; i++ {
		if _, err := f.out.Write(line); err != nil {
			f.ended <- err
			return err
		}
		if i == 0 {
			close(f.started)
		}
		select {
		case err := <-readErr:
			f.ended <- err
			return err
		default:
		}
	}
}

type zoomModel struct{ cmd *floodCmd }

func (m *zoomModel) Init() tea.Cmd { return nil }
func (m *zoomModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "z" {
		return m, tea.Exec(m.cmd, func(error) tea.Msg { return nil })
	}
	return m, nil
}
func (m *zoomModel) View() tea.View { return tea.NewView("ready for z") }

// A client that goes away while a workspace session has its terminal
// (zoom) must not leave the session writing into a pty nobody reads: the
// zoom's output blocked there once the pty's buffer filled, and with it
// the session's output pump, so the session froze for every other client
// (a shell printing 30,000 lines stopped after 2,884, for good).
func TestLostClientEndsItsZoom(t *testing.T) {
	t.Parallel()
	flood := &floodCmd{started: make(chan struct{}), ended: make(chan error, 1)}
	h := startServer(t, func(o *Options) {
		o.NewUI = func(ctx context.Context, c Client) (UI, error) { return UI{Model: &zoomModel{cmd: flood}}, nil }
	})
	hostKey, err := HostPublicKey(h.dir + "/run/host_ed25519")
	require.NoError(t, err)
	conn, err := net.Dial("unix", h.srv.SocketPath())
	require.NoError(t, err)
	cc, chans, reqs, err := gossh.NewClientConn(conn, "alice", &gossh.ClientConfig{User: "u", HostKeyCallback: gossh.FixedHostKey(hostKey), Timeout: 30 * time.Second})
	require.NoError(t, err)
	client := gossh.NewClient(cc, chans, reqs)
	sess, err := client.NewSession()
	require.NoError(t, err)
	require.NoError(t, sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}))
	stdin, err := sess.StdinPipe()
	require.NoError(t, err)
	stdout, err := sess.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, sess.Shell())
	ready := make(chan struct{})
	go func() {
		var seen strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := stdout.Read(buf)
			seen.Write(buf[:n])
			if strings.Contains(seen.String(), "ready for z") {
				close(ready)
				return
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatal("the program never drew")
	}
	_, err = stdin.Write([]byte("z"))
	require.NoError(t, err)
	select {
	case <-flood.started:
	case <-time.After(30 * time.Second):
		t.Fatal("the zoom never started")
	}
	// The client vanishes (its terminal closed, kill -9) without a word,
	// and nobody reads the zoom's output any more.
	require.NoError(t, conn.Close())

	select {
	case err := <-flood.ended:
		require.Error(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("the zoom went on writing into the lost client's terminal (blocked once its buffer filled)")
	}
	require.Eventually(t, func() bool {
		h.srv.mu.Lock()
		defer h.srv.mu.Unlock()
		return len(h.srv.clients) == 0
	}, 30*time.Second, 10*time.Millisecond, "the lost client's program ended")
}
