package attach

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/alice-trading/alice/core/termmodes"
	"golang.org/x/crypto/ssh"
	"golang.org/x/term"
)

// Terminal is the client's side: the local terminal the relay drives.
type Terminal struct {
	In  *os.File
	Out io.Writer
	// Size reports the terminal size when In is not a terminal (tests).
	Width, Height int
	Term          string
}

// Outcome is how an attach ended.
type Outcome int

const (
	// Detached: the core keeps running.
	Detached Outcome = iota
	// CoreStopping: the person quit alice; the core is shutting down.
	CoreStopping
	// Refused: the core would not serve this client; it wrote why to the
	// client's stderr (too many clients, no terminal, a config error).
	Refused
	// Lost: the connection to the core went away.
	Lost
)

// Attach relays the terminal to the core listening on socketPath until
// the client detaches or quits. hostKeyPath pins the core's host key.
func Attach(ctx context.Context, socketPath, hostKeyPath string, t Terminal) (Outcome, error) {
	hostKey, err := HostPublicKey(hostKeyPath)
	if err != nil {
		return Lost, err
	}
	d := net.Dialer{Timeout: 5 * time.Second}
	conn, err := d.DialContext(ctx, "unix", socketPath)
	if err != nil {
		return Lost, fmt.Errorf("attach: connect to the running core at %s: %w", socketPath, err)
	}
	cfg := &ssh.ClientConfig{
		User:            os.Getenv("USER"),
		HostKeyCallback: ssh.FixedHostKey(hostKey),
		Timeout:         5 * time.Second,
	}
	if cfg.User == "" {
		cfg.User = "alice"
	}
	sc, chans, reqs, err := ssh.NewClientConn(conn, "alice-core", cfg)
	if err != nil {
		conn.Close()
		return Lost, fmt.Errorf("attach: %w", err)
	}
	client := ssh.NewClient(sc, chans, reqs)
	defer client.Close()
	sess, err := client.NewSession()
	if err != nil {
		return Lost, fmt.Errorf("attach: %w", err)
	}
	defer sess.Close()

	termName := t.Term
	if termName == "" {
		termName = os.Getenv("TERM")
	}
	if termName == "" {
		termName = "xterm-256color"
	}
	for _, k := range []string{"COLORTERM", "LANG", "LC_ALL", "TERM_PROGRAM"} {
		if v := os.Getenv(k); v != "" {
			_ = sess.Setenv(k, v) // best effort: colour and locale detection
		}
	}
	fd := int(t.In.Fd())
	isTerm := term.IsTerminal(fd)
	w, h := t.Width, t.Height
	if isTerm {
		if tw, th, err := term.GetSize(fd); err == nil {
			w, h = tw, th
		}
	}
	if w <= 0 || h <= 0 {
		w, h = 80, 24
	}
	if err := sess.RequestPty(termName, h, w, ssh.TerminalModes{ssh.ECHO: 0}); err != nil {
		return Lost, fmt.Errorf("attach: %w", err)
	}
	if isTerm {
		old, err := term.MakeRaw(fd)
		if err != nil {
			return Lost, fmt.Errorf("attach: raw mode: %w", err)
		}
		defer term.Restore(fd, old) //nolint:errcheck
	}
	stdin, err := sess.StdinPipe()
	if err != nil {
		return Lost, fmt.Errorf("attach: %w", err)
	}
	out := t.Out
	if tr := os.Getenv("ALICE_ATTACH_TRACE"); tr != "" {
		if f, err := os.Create(tr); err == nil {
			defer f.Close()
			out = io.MultiWriter(out, f)
		}
	}
	// The core's program restores the terminal when it ends; when the
	// connection is lost instead, the client does, from the modes the
	// stream left on.
	var modes termmodes.Tracker
	sess.Stdout = io.MultiWriter(out, &modes)
	sess.Stderr = t.Out
	restore := func() { _, _ = io.WriteString(t.Out, modes.Restore()) }
	if err := sess.Shell(); err != nil {
		return Lost, fmt.Errorf("attach: %w", err)
	}
	go func() { _, _ = io.Copy(stdin, t.In) }() // ends with the process; os.Stdin reads cannot be cancelled portably

	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	for {
		select {
		case <-winch:
			if tw, th, err := term.GetSize(fd); err == nil && (tw != w || th != h) {
				w, h = tw, th
				_ = sess.WindowChange(th, tw)
			}
		case <-ctx.Done():
			sess.Close()
			<-done
			restore()
			return Detached, nil
		case err := <-done:
			var exit *ssh.ExitError
			switch {
			case err == nil:
				return Detached, nil
			case errors.As(err, &exit) && exit.ExitStatus() == ExitCoreStopping:
				return CoreStopping, nil
			case errors.As(err, &exit) && exit.ExitStatus() == ExitRefused:
				return Refused, nil
			default:
				restore()
				return Lost, err
			}
		}
	}
}
