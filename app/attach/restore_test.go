package attach

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/core/termmodes"
	"github.com/creack/pty"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"
)

// fullModel is a full-screen program like alice's TUI: alternate screen,
// mouse reporting, a hidden cursor; it ends on q or d like sizeModel.
type fullModel struct{ sizeModel }

func (m *fullModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := m.sizeModel.Update(msg)
	return m, cmd
}

func (m *fullModel) View() tea.View {
	lines := make([]string, max(m.h, 1))
	for i := range lines {
		lines[i] = fmt.Sprintf("row %d of %dx%d %s", i+1, m.w, m.h, strings.Repeat("x", max(m.w-20, 0)))
	}
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

// Quitting and detaching, after a resize, leave the client's terminal in
// its defaults, and the alternate screen is erased before it is left:
// tmux copies rows of an alternate screen resized while in use onto the
// main screen when it is left.
func TestEndingLeavesTheTerminalAsFound(t *testing.T) {
	t.Parallel()
	for _, key := range []string{"q", "d"} {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			h := startServer(t, func(o *Options) {
				o.NewUI = func(ctx context.Context, c Client) (UI, error) {
					return UI{Model: &fullModel{sizeModel{w: c.Width, h: c.Height}}, Quit: func(final tea.Model) bool { return final.(*fullModel).quit }}, nil
				}
			})
			c := attachClient(t, h, 100, 30)
			c.waitFor(t, "row 30 of 100x30")
			require.NoError(t, pty.Setsize(c.ctl, &pty.Winsize{Cols: 140, Rows: 40}))
			p, _ := os.FindProcess(os.Getpid())
			require.Eventually(t, func() bool {
				_ = p.Signal(sigwinch)
				return strings.Contains(c.out.String(), "row 40 of 140x40")
			}, 30*time.Second, 50*time.Millisecond)
			_, _ = c.ctl.Write([]byte(key))
			c.end(t)

			out := c.out.String()
			var modes termmodes.Tracker
			_, _ = modes.Write([]byte(out))
			require.Empty(t, modes.Set(), "modes left on after %q", key)
			leave := strings.LastIndex(out, "\x1b[?1049l")
			require.Positive(t, leave)
			require.True(t, strings.HasSuffix(out[:leave], "\x1b[2J"), "the alternate screen is erased before it is left: %q", out[max(leave-60, 0):])
		})
	}
}

// When the connection to the core is lost mid-session, the client puts
// back what the stream had turned on.
func TestLostConnectionRestoresTheTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	hostKey := filepath.Join(dir, "host_ed25519")
	require.NoError(t, ensureHostKey(hostKey))
	b, err := os.ReadFile(hostKey)
	require.NoError(t, err)
	signer, err := gossh.ParsePrivateKey(b)
	require.NoError(t, err)
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	require.NoError(t, err)
	defer l.Close()

	// A core that draws, sets modes and dies without an exit status.
	go func() {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		cfg := &gossh.ServerConfig{NoClientAuth: true}
		cfg.AddHostKey(signer)
		_, chans, reqs, err := gossh.NewServerConn(conn, cfg)
		if err != nil {
			return
		}
		go gossh.DiscardRequests(reqs)
		for nc := range chans {
			ch, creqs, err := nc.Accept()
			if err != nil {
				return
			}
			for r := range creqs {
				_ = r.Reply(true, nil)
				if r.Type == "shell" {
					_, _ = ch.Write([]byte("\x1b[?1049h\x1b[?25l\x1b[?1002h\x1b[?1006h\x1b[?2004h\x1b[>1uframe"))
					return // the deferred conn.Close drops the connection
				}
			}
		}
	}()

	ctl, tty, err := pty.Open()
	require.NoError(t, err)
	defer ctl.Close()
	defer tty.Close()
	go func() { _, _ = io.Copy(io.Discard, ctl) }()
	out := &syncBuf{}
	o, _ := Attach(context.Background(), sock, hostKey, Terminal{In: tty, Out: out, Term: "xterm-256color"})
	require.Equal(t, Lost, o)
	var modes termmodes.Tracker
	_, _ = modes.Write([]byte(out.String()))
	require.Contains(t, out.String(), "frame")
	require.Empty(t, modes.Set(), "modes left on: %q", out.String())
	require.True(t, strings.HasSuffix(out.String(), "\x1b[2J\x1b[?1049l"), "%q", out.String())
}
