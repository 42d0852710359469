package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// setup starts alice with a shell attached in its Workspaces pane, reads
// the pane's inner size with stty, and starts the bare tmux of that size.
func (b *bench) setup() error {
	c := b.cfg
	home := filepath.Join(c.work, "home")
	conf := filepath.Join(c.work, "tmux.conf")
	files := map[string]string{
		filepath.Join(home, "config", "mcp.json"):        `{"port":0}`,
		filepath.Join(home, "config", "connectors.json"): `{"mcpAsk":{"enabled":false}}`,
		filepath.Join(home, "config", "news.json"):       `{"enabled":false,"intervalMinutes":10,"maxInMemory":100,"retentionDays":7,"feeds":[]}`,
		filepath.Join(home, "config", "workspaces.json"): fmt.Sprintf(`{"escapeTimeMs":%d}`, c.escapeTime),
		conf: fmt.Sprintf("set -g status off\nset -g escape-time %d\n", c.escapeTime),
	}
	for p, s := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			return err
		}
	}
	id := fmt.Sprintf("%d", os.Getpid())
	b.outer = tmuxServer{sock: "alice-tuibench-outer-" + id, conf: conf}
	b.inner = tmuxServer{sock: "alice-tuibench-inner-" + id, conf: conf}
	cmd := fmt.Sprintf("exec env SHELL=/bin/sh PS1='$ ' ENV= ALICE_HOME='%s' '%s' --foreground", home, c.alice) // one process: its CPU and RSS are the TUI's and the sessions' (bench/attach measures the relay)
	if c.relay {
		cmd = fmt.Sprintf("exec env PS1='$ ' ENV= '%s' /bin/sh", c.alice)
	}
	err := b.outer.run("new-session", "-d", "-s", aliceT, "-x", fmt.Sprint(c.cols), "-y", fmt.Sprint(c.rows), cmd)
	if err != nil {
		return err
	}
	if !c.relay {
		b.alicePID = b.outer.pid(aliceT, "#{pane_pid}")
	}
	o := b.outer
	steps := []struct {
		keys []string
		wait string
	}{
		{nil, "Workspaces"},
		{[]string{"M-4"}, "No workspaces yet"},
		{[]string{"n"}, "New workspace"},
		{[]string{"bench", "Tab", "Enter"}, "no sessions"},
		{[]string{"s"}, "sh1 · running · ctrl+q"},
	}
	if c.relay {
		steps = nil // a shell straight away
	}
	for _, s := range steps {
		if len(s.keys) > 0 {
			if err := o.keys(aliceT, s.keys...); err != nil {
				return err
			}
		}
		if err := o.waitText(aliceT, s.wait, 20*time.Second); err != nil {
			return err
		}
	}
	if b.irows, b.icols, err = b.sttySize(aliceT); err != nil {
		return err
	}
	err = b.inner.run("new-session", "-d", "-s", innerT, "-x", fmt.Sprint(b.icols), "-y", fmt.Sprint(b.irows),
		"exec env PS1='$ ' ENV= /bin/sh")
	if err == nil {
		err = b.outer.run("new-session", "-d", "-s", tmuxT, "-x", fmt.Sprint(b.icols), "-y", fmt.Sprint(b.irows),
			fmt.Sprintf("exec env TMUX= tmux -L %s -f %s attach -t %s", b.inner.sock, conf, innerT))
	}
	if err != nil {
		return err
	}
	r, cl, err := b.sttySize(tmuxT)
	if err != nil {
		return err
	}
	if r != b.irows || cl != b.icols {
		return fmt.Errorf("bare tmux pane is %dx%d, want %dx%d", cl, r, b.icols, b.irows)
	}
	b.clientPID = b.outer.pid(tmuxT, "#{pane_pid}")
	b.serverPID = b.inner.pid(innerT, "#{pid}")
	for _, side := range []string{aliceT, tmuxT} {
		if err := b.clearScreen(side); err != nil {
			return err
		}
	}
	return nil
}

// sizeRe finds stty size's answer; a prompt may precede it when the
// command was typed before the shell printed its first one.
var sizeRe = regexp.MustCompile(`(?m)^[│ ]*(?:\$ )?(\d+) (\d+)[ │]*$`)

func (b *bench) sttySize(side string) (rows, cols int, err error) {
	if err := b.outer.line(side, "stty size"); err != nil {
		return 0, 0, err
	}
	var m []string
	err = b.outer.waitScreen(side, 10*time.Second, "stty size", func(s string) bool {
		m = sizeRe.FindStringSubmatch(s)
		return m != nil
	})
	if err != nil {
		return 0, 0, err
	}
	rows, _ = strconv.Atoi(m[1])
	cols, _ = strconv.Atoi(m[2])
	return rows, cols, nil
}

// startBusy adds cfg.busy chatty sessions and one idle one on both sides,
// then re-attaches alice to sh1.
func (b *bench) startBusy() error {
	o := b.outer
	busy := b.cfg.self + " -busy"
	if err := o.keys(aliceT, "C-q"); err != nil {
		return err
	}
	if err := o.waitText(aliceT, "detached", 10*time.Second); err != nil {
		return err
	}
	for i := 0; i <= b.cfg.busy; i++ {
		name := fmt.Sprintf("sh%d · running · ctrl+q", i+2)
		if err := o.keys(aliceT, "s"); err != nil {
			return err
		}
		if err := o.waitText(aliceT, name, 20*time.Second); err != nil {
			return err
		}
		if i < b.cfg.busy {
			if err := o.line(aliceT, busy); err != nil {
				return err
			}
		}
		if err := o.keys(aliceT, "C-q"); err != nil {
			return err
		}
		if err := o.waitScreen(aliceT, 10*time.Second, "the list", func(s string) bool { return !strings.Contains(s, name) }); err != nil {
			return err
		}
		cmd := "exec " + busy
		if i == b.cfg.busy {
			cmd = "exec env PS1='$ ' ENV= /bin/sh"
		}
		if err := b.inner.run("new-window", "-d", "-t", innerT, cmd); err != nil {
			return err
		}
	}
	// Detaching leaves the detached session selected: go up to the
	// workspace's row, then down to its first session.
	keys := []string{}
	for i := 0; i <= b.cfg.busy+1; i++ {
		keys = append(keys, "Up")
	}
	if err := o.keys(aliceT, append(keys, "Down", "Enter")...); err != nil {
		return err
	}
	return o.waitText(aliceT, "sh1 · running · ctrl+q", 10*time.Second)
}

// gradientLines is the length of the gradient file: 8000 lines of 20
// 24-bit colours that no other run has (160,000 styles, more than the
// 65,536 the scrollback's style table once held).
const gradientLines = 8000

// writeCatFile writes mb MB of plain or coloured (8 colours) lines, or the
// gradient file.
func writeCatFile(path string, mb int, kind string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if kind == "gradient" {
		colour := 0
		for i := 0; i < gradientLines; i++ {
			for j := 0; j < 20; j++ {
				colour++
				fmt.Fprintf(w, "\x1b[38;2;%d;%d;%dmg%03d", uint8(colour), uint8(colour>>8), uint8(colour>>16), j)
			}
			w.WriteString("\x1b[m\n")
		}
		mb = 0
	}
	const s = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz!@#"
	for i := 0; i < mb*10000; i++ {
		if kind == "coloured" {
			for j := 0; j < 9; j++ {
				fmt.Fprintf(w, "\x1b[3%dm%s", (i+j)%8, s[j*10:j*10+10])
			}
			fmt.Fprintf(w, "\x1b[m%s\n", s[90:99])
		} else {
			fmt.Fprintf(w, "%s%07d\n", s[i%7:i%7+92], i%10000000)
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
