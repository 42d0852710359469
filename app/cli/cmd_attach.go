package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/attach"
	"github.com/alice-trading/alice/config"
	"golang.org/x/term"
)

// The attach relay: a core (alice serve, or one `alice` started in the
// background) serves its TUI on a unix socket in the data dir; `alice` and
// `alice attach` are thin clients of it, like tmux clients of a tmux server.

// attachListener is the name of the socket in the lock's owner file.
const attachListener = "attach"

// socketPaths are where a data dir's core listens and keeps its host key.
func socketPaths(data string) (sock, hostKey string) {
	dir := filepath.Join(data, "attach")
	sock = filepath.Join(dir, "alice.sock")
	if len(sock) > 100 { // sun_path is 108 bytes; keep a margin
		sock = filepath.Join(config.SocketFallbackDir(), shortHash(data)+".sock")
	}
	return sock, filepath.Join(dir, "host_ed25519")
}

// runningCore reports the core that owns the data dir, if any, with the
// socket it serves its TUI on ("" when it serves none: an older alice).
func runningCore(data string) (owner *config.LockOwner, sock string, running bool) {
	held, err := config.LockHeld(data)
	if err != nil || !held {
		return nil, "", false
	}
	o, rerr := config.ReadLockOwner(data)
	if rerr != nil {
		return nil, "", true
	}
	return &o, attachSocket(o), true
}

// attachSocket is the socket an owner file records ("" when none).
func attachSocket(o config.LockOwner) string {
	for _, l := range o.Listeners {
		if l.Name == attachListener {
			return strings.TrimPrefix(l.URL, "unix://")
		}
	}
	return ""
}

// runTUICommand is `alice`: attach to the data dir's core, starting one in
// the background first when none runs.
func runTUICommand(e *env, _ []string) int {
	paths, err := config.ResolvePaths(e.home)
	if err != nil {
		return e.errorf("%v", err)
	}
	if e.flag("foreground") == "true" {
		return runCore(e, true)
	}
	if !term.IsTerminal(int(os.Stdin.Fd())) {
		return e.errorf("the terminal UI needs a terminal (stdin is not one); `alice serve` runs the core headless")
	}
	_, sock, running := runningCore(paths.Data)
	if !running {
		// Validate here so config errors reach this terminal, not the log.
		if err := app.Validate(config.NewReadOnlyStore(paths.Config), os.Getenv); err != nil {
			printErrors(e.stderr, err)
			return 1
		}
		if sock, err = startBackgroundCore(e, paths); err != nil {
			return e.errorf("%v", err)
		}
	} else if sock == "" {
		return e.errorf("%s is in use by an alice that serves no terminal (an older version?); stop it first", paths.Data)
	}
	return attachTo(e, paths, sock)
}

// runAttach is `alice attach`: attach to a running core, never start one.
func runAttach(e *env, _ []string) int {
	paths, err := config.ResolvePaths(e.home)
	if err != nil {
		return e.errorf("%v", err)
	}
	_, sock, running := runningCore(paths.Data)
	if !running {
		return e.errorf("no alice is running on %s; start one with `alice` or `alice serve`", paths.Data)
	}
	if sock == "" {
		return e.errorf("the alice running on %s serves no terminal yet; try again in a moment", paths.Data)
	}
	return attachTo(e, paths, sock)
}

func attachTo(e *env, paths config.Paths, sock string) int {
	if !term.IsTerminal(int(os.Stdin.Fd())) {
		return e.errorf("the terminal UI needs a terminal (stdin is not one); `alice serve` runs the core headless")
	}
	_, hostKey := socketPaths(paths.Data)
	out, err := attach.Attach(context.Background(), sock, hostKey, attach.Terminal{In: os.Stdin, Out: os.Stdout})
	switch out {
	case attach.Detached:
		fmt.Fprintf(e.stdout, "alice: detached; the core keeps running (`alice` attaches again, `alice stop` stops it)\n")
		return 0
	case attach.CoreStopping:
		if !waitCoreGone(paths.Data, 15*time.Second) {
			return e.errorf("the core is still stopping; see `alice logs`")
		}
		fmt.Fprintln(e.stdout, "alice: the core has stopped (its MCP ports, schedules and workspace sessions with it)")
		return 0
	case attach.Refused:
		// The core wrote its reason (clients at the limit, no terminal, a
		// config error) to stderr just before.
		return e.errorf("the running core refused this terminal (its reason is above)")
	default:
		if err == nil {
			err = errors.New("connection to the core lost")
		}
		// A killed core's socket can close a moment before its lock is
		// released: give the lock time to follow.
		if waitCoreGone(paths.Data, 3*time.Second) {
			// The ssh library's reason ("remote command exited without
			// exit status") says nothing to a person.
			return e.errorf("%s", coreLostMessage(filepath.Join(paths.Logs, app.LogName)))
		}
		return e.errorf("lost the connection to the core (pid still running): %v", err)
	}
}

// startBackgroundCore runs `alice serve` detached from this terminal (own
// session, output to the log only) and waits until its socket answers.
func startBackgroundCore(e *env, paths config.Paths) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	args := []string{"serve", "--quiet"}
	if e.home != "" {
		args = append(args, "--home", e.home)
	}
	if e.debug {
		args = append(args, "--debug")
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return "", err
	}
	defer devnull.Close()
	if err := os.MkdirAll(filepath.Join(paths.Data, "attach"), 0o700); err != nil {
		return "", err
	}
	// Start-up errors the core prints before its log opens land here.
	errPath := filepath.Join(paths.Data, "attach", "serve.err")
	errFile, err := os.OpenFile(errPath, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return "", err
	}
	defer errFile.Close()
	cmd := exec.Command(exe, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, devnull, errFile
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("starting the core: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }() // reaps it if it dies while we wait
	deadline := time.After(30 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-exited:
			msg, _ := os.ReadFile(errPath)
			return "", fmt.Errorf("the core exited at start (%v): %s", err, strings.TrimSpace(string(msg)))
		case <-deadline:
			return "", fmt.Errorf("the core did not start within 30 s; see `alice logs`")
		case <-tick.C:
			// Read the owner file only: probing the lock could make the
			// starting core's own lock attempt fail.
			if o, err := config.ReadLockOwner(paths.Data); err == nil && o.PID == cmd.Process.Pid {
				if sock := attachSocket(o); sock != "" {
					return sock, nil
				}
			}
		}
	}
}

// runStop is `alice stop`: SIGTERM to the core, then wait for it to go.
func runStop(e *env, _ []string) int {
	paths, err := config.ResolvePaths(e.home)
	if err != nil {
		return e.errorf("%v", err)
	}
	owner, _, running := runningCore(paths.Data)
	if !running {
		// As tmux kill-server with no server: an error, exit status 1.
		return e.errorf("no core is running on %s", paths.Data)
	}
	if owner == nil || owner.PID <= 0 {
		return e.errorf("a core holds %s but its pid is unknown", paths.Data)
	}
	p, err := os.FindProcess(owner.PID)
	if err == nil {
		err = p.Signal(syscall.SIGTERM)
	}
	if err != nil {
		return e.errorf("stopping pid %d: %v", owner.PID, err)
	}
	if !waitCoreGone(paths.Data, 15*time.Second) {
		return e.errorf("pid %d did not stop within 15 s", owner.PID)
	}
	fmt.Fprintf(e.stdout, "alice: stopped the core (pid %d)\n", owner.PID)
	return 0
}

// waitCoreGone polls until no process holds the data dir's lock.
func waitCoreGone(data string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if _, _, running := runningCore(data); !running {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// shortHash names a data dir's socket when its own path is too long.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// serveAttach starts the relay for a running core: the local socket
// always, the SSH listener when attach.json enables it.
func serveAttach(ctx context.Context, s *setup, a *app.App, stop func()) (*attach.Server, error) {
	cfg, err := s.store.Attach()
	if err != nil {
		return nil, err
	}
	sock, hostKey := socketPaths(s.paths.Data)
	opts := attach.Options{
		SocketPath:  sock,
		HostKeyPath: hostKey,
		MaxClients:  cfg.MaxClients,
		Logger:      s.logger,
		StopCore:    stop,
		NewUI:       func(ctx context.Context, c attach.Client) (attach.UI, error) { return newClientUI(a, s.store, c) },
	}
	if cfg.SSH.Enabled {
		host := cfg.SSH.Host
		if host == "" {
			host = "127.0.0.1"
		}
		opts.TCPAddr = net.JoinHostPort(host, strconv.Itoa(cfg.SSH.Port))
		opts.AuthorizedKeysPath = cfg.SSH.AuthorizedKeys
		if opts.AuthorizedKeysPath == "" {
			opts.AuthorizedKeysPath = filepath.Join(s.paths.Config, "authorized_keys")
		}
	}
	return attach.Listen(ctx, opts)
}
