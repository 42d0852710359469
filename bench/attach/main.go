// Command attach measures alice's attach relay against tmux attach, both
// read from an outer tmux server (capture-pane), interleaved, medians:
//
//   - attach to first frame: `alice attach` to a running core until its UI
//     shows, against `tmux attach` to a running tmux session until its
//     shell prompt shows;
//
//   - keystroke echo in a shell: through the relay (alice attach, the
//     Workspaces pane attached to a shell session), through alice
//     --foreground (no relay: the same TUI in one process), and through a
//     tmux client attached to a tmux server's shell.
//
//     go run ./bench/attach -alice ./alice [-runs 7 -echo 40]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

type tmux struct{ sock string }

func (t tmux) cmd(args ...string) *exec.Cmd {
	c := exec.Command("tmux", append([]string{"-L", t.sock, "-f", "/dev/null"}, args...)...)
	c.Env = append(os.Environ(), "TMUX=")
	return c
}
func (t tmux) run(args ...string) {
	if out, err := t.cmd(args...).CombinedOutput(); err != nil {
		fail("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
}
func (t tmux) capture(target string) string {
	out, _ := t.cmd("capture-pane", "-p", "-t", target).Output()
	return string(out)
}
func (t tmux) wait(target string, limit time.Duration, cond func(string) bool) {
	deadline := time.Now().Add(limit)
	for !cond(t.capture(target)) {
		if time.Now().After(deadline) {
			fail("%s: timed out; screen:\n%s", target, t.capture(target))
		}
		time.Sleep(time.Millisecond)
	}
}
func (t tmux) waitText(target, text string) {
	t.wait(target, 30*time.Second, func(s string) bool { return strings.Contains(s, text) })
}
func (t tmux) kill() { _ = t.cmd("kill-server").Run() }

// benchError carries a failure up to main through a panic, so every
// deferred cleanup (tmux servers, the cores) runs before the exit.
type benchError struct{ msg string }

func fail(format string, args ...any) {
	panic(benchError{fmt.Sprintf(format, args...)})
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
func pct(ds []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)*p/100]
}
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func main() {
	code := 0
	func() {
		defer func() {
			if r := recover(); r != nil {
				e, ok := r.(benchError)
				if !ok {
					panic(r)
				}
				fmt.Fprintln(os.Stderr, "bench/attach: "+e.msg)
				code = 1
			}
		}()
		run()
	}()
	os.Exit(code)
}

func run() {
	alice := flag.String("alice", "", "alice binary (required)")
	runs := flag.Int("runs", 7, "attaches per side")
	echo := flag.Int("echo", 40, "keystrokes per side")
	flag.Parse()
	if *alice == "" {
		fail("-alice is required")
	}
	bin, _ := filepath.Abs(*alice)
	work, err := os.MkdirTemp("", "alice-attachbench")
	if err != nil {
		fail("%v", err)
	}
	defer os.RemoveAll(work)
	home := filepath.Join(work, "home")
	fgHome := filepath.Join(work, "fg")
	for _, h := range []string{home, fgHome} {
		writeHome(h)
	}
	outer := tmux{sock: fmt.Sprintf("alice-attachbench-%d", os.Getpid())}
	inner := tmux{sock: outer.sock + "-inner"}
	defer outer.kill()
	defer inner.kill()
	stop := func(h string) { _ = exec.Command(bin, "stop", "--home", h).Run() }

	defer stop(fgHome)
	serve := exec.Command(bin, "serve", "--quiet", "--home", home)
	if err := serve.Start(); err != nil {
		fail("%v", err)
	}
	defer func() { // stop the core cleanly, then make sure it is gone
		stop(home)
		_ = serve.Process.Kill()
		_ = serve.Wait()
	}()
	waitFile(filepath.Join(home, "data", "alice.lock.json"), "unix://")
	outer.run("new-session", "-d", "-s", "keep", "sleep 100000") // the outer server outlives the measured sessions
	inner.run("new-session", "-d", "-s", "in", "-x", "100", "-y", "30", "env PS1='tmux$ ' ENV= /bin/sh")

	fmt.Printf("attach to first frame (%d runs each, interleaved)\n", *runs)
	var da, dt []time.Duration
	for i := 0; i < *runs; i++ {
		start := time.Now()
		outer.run("new-session", "-d", "-s", "a", "-x", "100", "-y", "30", "env ALICE_HOME="+home+" "+bin+" attach")
		outer.wait("a", 30*time.Second, func(s string) bool { return strings.Contains(s, "Ask Alice") })
		da = append(da, time.Since(start))
		outer.run("send-keys", "-t", "a", "C-z")
		outer.wait("a", 10*time.Second, func(s string) bool { return !strings.Contains(s, "Ask Alice") })
		_ = outer.cmd("kill-session", "-t", "a").Run()

		start = time.Now()
		outer.run("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", "env TMUX= tmux -L "+inner.sock+" -f /dev/null attach -t in")
		outer.wait("t", 30*time.Second, func(s string) bool { return strings.Contains(s, "tmux$") })
		dt = append(dt, time.Since(start))
		_ = outer.cmd("kill-session", "-t", "t").Run()
	}
	fmt.Printf("  alice attach  median %7.1f ms   tmux attach median %7.1f ms   ratio %.2f\n", ms(median(da)), ms(median(dt)), float64(median(da))/float64(median(dt)))

	// Echo: an alice client attached to a shell session, the same through
	// --foreground, and a tmux client on the inner shell.
	outer.run("new-session", "-d", "-s", "a", "-x", "104", "-y", "36", "env SHELL=/bin/sh PS1='alice$ ' ENV= ALICE_HOME="+home+" "+bin+" attach")
	outer.run("new-session", "-d", "-s", "f", "-x", "104", "-y", "36", "env SHELL=/bin/sh PS1='alice$ ' ENV= ALICE_HOME="+fgHome+" "+bin+" --foreground")
	outer.run("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", "env TMUX= tmux -L "+inner.sock+" -f /dev/null attach -t in")
	for _, s := range []string{"a", "f"} {
		outer.waitText(s, "Ask Alice")
		outer.run("send-keys", "-t", s, "M-4")
		outer.waitText(s, "No workspaces yet")
		outer.run("send-keys", "-t", s, "n")
		outer.waitText(s, "New workspace")
		outer.run("send-keys", "-t", s, "bench", "Tab", "Enter")
		outer.waitText(s, "no sessions")
		outer.run("send-keys", "-t", s, "s")
		outer.waitText(s, "sh1 · running")
		time.Sleep(time.Second) // the shell's prompt
	}
	outer.waitText("t", "tmux$")
	res := map[string][]time.Duration{}
	for i := 0; i < *echo; i++ {
		for _, s := range []string{"a", "f", "t"} {
			if i%20 == 0 {
				outer.run("send-keys", "-t", s, "C-u")
				time.Sleep(100 * time.Millisecond)
			}
			base := strings.Count(outer.capture(s), "x")
			start := time.Now()
			outer.run("send-keys", "-t", s, "-l", "x")
			outer.wait(s, 5*time.Second, func(sc string) bool { return strings.Count(sc, "x") > base })
			res[s] = append(res[s], time.Since(start))
		}
	}
	fmt.Printf("keystroke echo in a shell (%d keys each, interleaved)\n", *echo)
	for _, s := range []struct{ k, name string }{{"a", "alice attach (relay)"}, {"f", "alice --foreground"}, {"t", "tmux attach"}} {
		fmt.Printf("  %-22s p50 %6.1f ms  p90 %6.1f ms\n", s.name, ms(median(res[s.k])), ms(pct(res[s.k], 90)))
	}
	fmt.Printf("  ratio relay/tmux p50 %.2f   relay/foreground p50 %.2f\n",
		float64(median(res["a"]))/float64(median(res["t"])), float64(median(res["a"]))/float64(median(res["f"])))
	for _, s := range []string{"a", "f"} {
		outer.run("send-keys", "-t", s, "C-q")
		time.Sleep(200 * time.Millisecond)
		outer.run("send-keys", "-t", s, "C-c")
		time.Sleep(200 * time.Millisecond)
		outer.run("send-keys", "-t", s, "y")
	}
}

func writeHome(h string) {
	cfg := filepath.Join(h, "config")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		fail("%v", err)
	}
	files := map[string]string{
		"mcp.json":        `{"port":0}`,
		"connectors.json": `{"mcpAsk":{"enabled":false}}`,
		"news.json":       `{"enabled":false,"intervalMinutes":10,"maxInMemory":100,"retentionDays":7,"feeds":[]}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(cfg, name), []byte(body+"\n"), 0o600); err != nil {
			fail("%v", err)
		}
	}
}

func waitFile(p, text string) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), text) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	fail("%s did not show %q", p, text)
}
