// Command terminal measures output throughput of a workspace session: the
// time from typing `cat FILE; printf DONE-42` into a shell until the
// session's screen shows the sentinel, side by side with tmux (same file,
// same window size) and a raw pty (`script -qc`), and prints the ratios.
//
//	go run ./bench/terminal -file /tmp/big.txt [-cols 160 -rows 45 -runs 3]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/alice-trading/alice/workspace"
)

const (
	sentinel = "DONE-42"
	command  = "cat %s; printf 'DONE-%%s\\n' $((40+2))"
)

func main() {
	file := flag.String("file", "", "file to cat (required)")
	cols := flag.Int("cols", 160, "window columns")
	rows := flag.Int("rows", 45, "window rows")
	runs := flag.Int("runs", 3, "runs per path (the median is reported)")
	timeout := flag.Duration("timeout", 5*time.Minute, "per-run limit")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the alice runs")
	only := flag.String("only", "", "run only this path (raw, tmux, alice)")
	flag.Parse()
	if *file == "" {
		fmt.Fprintln(os.Stderr, "usage: terminal -file FILE")
		os.Exit(2)
	}
	st, err := os.Stat(*file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mb := float64(st.Size()) / 1e6
	fmt.Printf("file %s (%.1f MB), window %dx%d, %d runs each, median reported\n", *file, mb, *cols, *rows, *runs)
	paths := []struct {
		name string
		run  func() (time.Duration, error)
	}{
		{"raw pty (script -qc)", func() (time.Duration, error) { return rawPty(*file, *timeout) }},
		{"tmux", func() (time.Duration, error) { return tmux(*file, *cols, *rows, *timeout) }},
		{"alice workspace", func() (time.Duration, error) { return alice(*file, *cols, *rows, *timeout) }},
	}
	res := map[string]time.Duration{}
	for _, p := range paths {
		if *only != "" && !strings.HasPrefix(p.name, *only) {
			continue
		}
		if *profile != "" && p.name == "alice workspace" {
			f, err := os.Create(*profile)
			if err == nil && pprof.StartCPUProfile(f) == nil {
				defer pprof.StopCPUProfile()
			}
		}
		var ds []time.Duration
		for range *runs {
			d, err := p.run()
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", p.name, err)
				os.Exit(1)
			}
			ds = append(ds, d)
		}
		slices.Sort(ds)
		med := ds[len(ds)/2]
		res[p.name] = med
		fmt.Printf("%-22s %8.2fs  %7.1f MB/s  (runs: %v)\n", p.name, med.Seconds(), mb/med.Seconds(), ds)
	}
	a, t, r := res["alice workspace"], res["tmux"], res["raw pty (script -qc)"]
	if *only != "" {
		return
	}
	fmt.Printf("alice/tmux    = %.2f\n", a.Seconds()/t.Seconds())
	fmt.Printf("alice/raw pty = %.2f\n", a.Seconds()/r.Seconds())
	fmt.Printf("tmux/raw pty  = %.2f\n", t.Seconds()/r.Seconds())
}

// rawPty is the floor: the kernel pty with nobody interpreting the output.
func rawPty(file string, limit time.Duration) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "script", "-qc", "cat "+file, "/dev/null")
	cmd.Stdout = io.Discard
	start := time.Now()
	err := cmd.Run()
	return time.Since(start), err
}

func tmux(file string, cols, rows int, limit time.Duration) (time.Duration, error) {
	sock := fmt.Sprintf("alice-bench-%d-%d", os.Getpid(), time.Now().UnixNano())
	tm := func(args ...string) *exec.Cmd {
		return exec.Command("tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...)
	}
	defer tm("kill-server").Run() //nolint:errcheck
	if out, err := tm("new-session", "-d", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), "env PS1='$ ' /bin/sh").CombinedOutput(); err != nil {
		return 0, fmt.Errorf("tmux: %v: %s", err, out)
	}
	screen := func() string { out, _ := tm("capture-pane", "-p").Output(); return string(out) }
	if err := waitFor(func() bool { return strings.Contains(screen(), "$") }, 10*time.Second); err != nil {
		return 0, fmt.Errorf("tmux prompt: %w", err)
	}
	start := time.Now()
	if err := tm("send-keys", fmt.Sprintf(command, file), "Enter").Run(); err != nil {
		return 0, err
	}
	err := waitFor(func() bool { return hasLine(screen(), sentinel) }, limit)
	return time.Since(start), err
}

func alice(file string, cols, rows int, limit time.Duration) (time.Duration, error) {
	root, err := os.MkdirTemp("", "h1-bench-ws")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(root)
	m, err := workspace.NewManager(workspace.Options{Root: filepath.Join(root, "ws"), ShellCommand: []string{"/bin/sh"},
		ExtraEnv: []string{"PS1=$ ", "ENV="}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return 0, err
	}
	defer m.Close()
	w, err := m.Create(context.Background(), "bench", "shell-only", nil)
	if err != nil {
		return 0, err
	}
	s, err := m.StartSessionSize(w.ID, workspace.AgentShell, cols, rows)
	if err != nil {
		return 0, err
	}
	if err := waitFor(func() bool { return strings.Contains(s.Screen(), "$") }, 10*time.Second); err != nil {
		return 0, fmt.Errorf("alice prompt: %w", err)
	}
	start := time.Now()
	if err := s.Input([]byte(fmt.Sprintf(command, file) + "\r")); err != nil {
		return 0, err
	}
	err = waitFor(func() bool { return hasLine(s.Screen(), sentinel) }, limit)
	return time.Since(start), err
}

func hasLine(screen, want string) bool {
	for _, l := range strings.Split(screen, "\n") {
		if strings.TrimSpace(l) == want {
			return true
		}
	}
	return false
}

func waitFor(cond func() bool, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if cond() {
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Errorf("timed out after %s", limit)
}
