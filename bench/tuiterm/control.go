package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// controlClient is a tmux control-mode client (tmux -C) attached to one
// session of the outer server. It types keys without a tmux process per
// key and hears, as %output notifications, every byte the session's pane
// writes the moment the server reads it: the echo timer's clock starts
// when the key is handed to the server and stops when the echo reaches
// it, with no capture-pane polling in between (which costs a fork of tmux
// per look, milliseconds, on both sides alike). A control client without
// a size of its own does not change the session's size.
type controlClient struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	output chan string // %output payloads, unescaped enough to find ch
	done   chan struct{}
}

func (t tmuxServer) control(target string) (*controlClient, error) {
	cmd := t.cmd("-C", "attach-session", "-t", target)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &controlClient{cmd: cmd, stdin: stdin, output: make(chan string, 4096), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			line := sc.Text()
			// %output %PANE DATA
			if rest, ok := strings.CutPrefix(line, "%output "); ok {
				if _, data, ok := strings.Cut(rest, " "); ok {
					select {
					case c.output <- data:
					default: // nobody is timing: drop
					}
				}
			}
		}
	}()
	return c, nil
}

// drain forgets output that arrived before the next key.
func (c *controlClient) drain() {
	for {
		select {
		case <-c.output:
		default:
			return
		}
	}
}

// typeAndWait sends s literally to target and returns the time until the
// pane's output contains want.
func (c *controlClient) typeAndWait(target, s, want string, limit time.Duration) (time.Duration, error) {
	return c.sendAndWait(target, "-l '"+s+"'", want, limit)
}

// pressAndWait is typeAndWait for a key named as send-keys names keys
// (Escape, M-a).
func (c *controlClient) pressAndWait(target, key, want string, limit time.Duration) (time.Duration, error) {
	return c.sendAndWait(target, key, want, limit)
}

// sendAndWait sends send-keys ARGS to target and times want's arrival.
func (c *controlClient) sendAndWait(target, args, want string, limit time.Duration) (time.Duration, error) {
	c.drain()
	start := time.Now()
	if _, err := fmt.Fprintf(c.stdin, "send-keys -t %s %s\n", target, args); err != nil {
		return 0, err
	}
	timeout := time.NewTimer(limit)
	defer timeout.Stop()
	// The echo may come in more than one write, with escape sequences
	// between them (the pty can hand ^[ of alt+a's echo over as ^ and
	// [a, and either side may draw them apart, the second with the
	// cursor hidden), so the text written since the keys were sent is
	// searched as a whole, escape sequences left out.
	var seen strings.Builder
	for {
		select {
		case data := <-c.output:
			seen.WriteString(unescapeOutput(data))
			if strings.Contains(ansi.Strip(seen.String()), want) {
				return time.Since(start), nil
			}
		case <-c.done:
			return 0, fmt.Errorf("%s: control client ended", target)
		case <-timeout.C:
			return 0, fmt.Errorf("%s: no %q in the output within %s", target, want, limit)
		}
	}
}

func (c *controlClient) close() {
	_ = c.stdin.Close()
	_ = c.cmd.Wait()
}

// unescapeOutput turns a %output payload back into the bytes the pane
// wrote: control mode writes bytes below 32 and the backslash as \ooo.
func unescapeOutput(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }
