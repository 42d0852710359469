// Command relay is the floor of a Go terminal relay, for bench/tuiterm
// -relay: a shell on a pty, keys copied to it and its output copied back,
// with alice's own I/O choices (the terminal read through Go's poller, as
// patched Bubble Tea's pollReader reads it; the pty read with a blocking
// read, as a session's pump reads it) and nothing else: no decoding, no
// event loop, no emulator, no renderer. Its echo latency against tmux's,
// in the same harness, is what the Go runtime's wake-ups cost on their
// own; alice's is that plus alice's work.
//
//	relay /bin/sh
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: relay PROGRAM [ARGS...]")
		os.Exit(2)
	}
	os.Exit(run(os.Args[1], os.Args[2:]))
}

func run(path string, args []string) int {
	old, err := term.MakeRaw(int(os.Stdin.Fd()))
	if err != nil {
		fmt.Fprintln(os.Stderr, "relay:", err)
		return 1
	}
	defer func() { _ = term.Restore(int(os.Stdin.Fd()), old) }()
	cols, rows, err := term.GetSize(int(os.Stdout.Fd()))
	if err != nil {
		cols, rows = 80, 24
	}
	cmd := exec.Command(path, args...)
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "relay:", err)
		return 1
	}
	defer func() { _ = ptmx.Close() }()
	// The terminal opened again by path: a file description of its own,
	// which Go's poller serves (non-blocking) without touching the one
	// the shell that started us shares.
	in, err := os.OpenFile(fmt.Sprintf("/proc/self/fd/%d", os.Stdin.Fd()), os.O_RDONLY, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "relay:", err)
		return 1
	}
	if err := in.SetReadDeadline(time.Time{}); err != nil {
		fmt.Fprintln(os.Stderr, "relay: the terminal is not pollable:", err)
	}
	go func() { _, _ = io.Copy(ptmx, in) }()
	buf := make([]byte, 64<<10)
	for {
		n, err := ptmx.Read(buf)
		if n > 0 {
			_, _ = os.Stdout.Write(buf[:n])
		}
		if err != nil {
			break
		}
	}
	_ = cmd.Wait()
	return 0
}
