// Command tuiterm measures an attached workspace session through the whole
// alice TUI against a bare tmux pane of the same inner size, both shown in
// an outer tmux server and read from there (capture-pane, pipe-pane):
//
//   - alice runs in outer session "alice"; a shell session is attached in
//     its Workspaces pane.
//   - a bare tmux server ("inner") runs /bin/sh in a window of exactly the
//     pane's inner size; a tmux client attached to it runs in outer session
//     "tmux" of that size.
//
// Measures, interleaved, medians: keystroke echo idle and with 20 busy
// sessions, the echo of a lone Escape and of alt+a, a full-screen coloured animation (finish time and frames drawn
// to the outer terminal), cat of a plain and a coloured file, idle CPU,
// CPU while 20 busy sessions run (-busycpu window), RSS with 1 and 22
// sessions. It prints alice/tmux ratios.
//
//	go run ./bench/tuiterm -alice ./alice [-runs 5 -echo 40 -idle 30s]
//
// The same binary is the load: -busy prints lines forever, -frames N draws
// N full-screen frames and then a sentinel.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

const sentinel = "DONE-42"

type config struct {
	alice      string
	relay      bool // the alice side runs alice as a plain relay's path instead (bench/relay)
	self       string
	cols, rows int // outer window of alice
	runs       int
	echo       int
	frames     int
	idle       time.Duration
	busyCPU    time.Duration
	catMB      int
	busy       int
	escapeTime int // ms, tmux's escape-time and alice's escapeTimeMs
	work       string
	only       map[string]bool // measures to run; empty: all
}

// measures are the names -only accepts, in the order they run.
var measures = []string{"rss", "idle", "echo", "esc", "frames", "cat", "gradient", "busy"}

// wants reports whether measure m runs.
func (c config) wants(m string) bool { return len(c.only) == 0 || c.only[m] }

func main() {
	var c config
	busy := flag.Bool("busy", false, "load mode: print a line every few milliseconds forever")
	frames := flag.Int("frames", 0, "load mode: draw N full-screen frames, then the sentinel")
	flag.StringVar(&c.alice, "alice", "", "alice binary under test (required)")
	flag.BoolVar(&c.relay, "relay", false, "the -alice binary is bench/relay (a plain Go pty relay running /bin/sh), not alice: the floor of a Go relay's echo against tmux's (echo and esc only)")
	flag.IntVar(&c.cols, "cols", 120, "outer window columns for alice")
	flag.IntVar(&c.rows, "rows", 40, "outer window rows for alice")
	flag.IntVar(&c.runs, "runs", 5, "runs per path for frames and cat (interleaved; median reported)")
	flag.IntVar(&c.echo, "echo", 40, "keystrokes per path for echo latency")
	flag.IntVar(&c.frames, "n", 2000, "frames in the full-screen run")
	flag.DurationVar(&c.idle, "idle", 30*time.Second, "quiet window for idle CPU")
	flag.DurationVar(&c.busyCPU, "busycpu", 10*time.Second, "window for CPU with the busy sessions running")
	flag.IntVar(&c.catMB, "mb", 10, "size of each cat file in MB")
	flag.IntVar(&c.busy, "sessions", 20, "busy sessions for the loaded echo run")
	flag.IntVar(&c.escapeTime, "escape-time", 0, "ms an Escape waits for the rest of a sequence: tmux's escape-time and alice's escapeTimeMs (workspaces.json), the same on both sides")
	only := flag.String("only", "", "comma-separated measures to run ("+strings.Join(measures, ",")+"); default all")
	flag.Parse()
	c.only = map[string]bool{}
	for _, m := range strings.Split(*only, ",") {
		if m = strings.TrimSpace(m); m == "" {
			continue
		}
		if !slices.Contains(measures, m) {
			fmt.Fprintf(os.Stderr, "tuiterm: unknown measure %q in -only (known: %s)\n", m, strings.Join(measures, ","))
			os.Exit(2)
		}
		c.only[m] = true
	}
	if c.relay {
		// A relay has no sessions, panes or frames of its own to measure.
		for m := range c.only {
			if m != "echo" && m != "esc" {
				delete(c.only, m)
			}
		}
		if len(c.only) == 0 {
			c.only = map[string]bool{"echo": true, "esc": true}
		}
	}
	switch {
	case *busy:
		runBusy()
		return
	case *frames > 0:
		runFrames(*frames)
		return
	}
	if c.alice == "" {
		fmt.Fprintln(os.Stderr, "usage: tuiterm -alice BINARY")
		os.Exit(2)
	}
	var err error
	if c.alice, err = filepath.Abs(c.alice); err == nil {
		c.self, err = os.Executable()
	}
	if err == nil {
		c.work, err = os.MkdirTemp("", "alice-tuibench")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(c.work)
	b := &bench{cfg: c}
	err = b.run()
	b.close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tuiterm:", err)
		os.Exit(1)
	}
}
