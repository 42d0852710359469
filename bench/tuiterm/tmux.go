package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// tmuxServer is one tmux server on its own socket with the bench config.
type tmuxServer struct{ sock, conf string }

func (t tmuxServer) cmd(args ...string) *exec.Cmd {
	c := exec.Command("tmux", append([]string{"-L", t.sock, "-f", t.conf}, args...)...)
	c.Env = append(os.Environ(), "TMUX=")
	return c
}

func (t tmuxServer) run(args ...string) error {
	if out, err := t.cmd(args...).CombinedOutput(); err != nil {
		return fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

func (t tmuxServer) out(args ...string) string {
	out, _ := t.cmd(args...).Output()
	return string(out)
}

func (t tmuxServer) capture(target string) string { return t.out("capture-pane", "-p", "-t", target) }

func (t tmuxServer) keys(target string, keys ...string) error {
	return t.run(append([]string{"send-keys", "-t", target}, keys...)...)
}

func (t tmuxServer) text(target, s string) error { return t.run("send-keys", "-t", target, "-l", s) }

// line types a command and Enter.
func (t tmuxServer) line(target, s string) error {
	if err := t.text(target, s); err != nil {
		return err
	}
	return t.keys(target, "Enter")
}

func (t tmuxServer) pid(target, format string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(t.out("display", "-p", "-t", target, format)))
	return n
}

// kill ends the server and removes its socket file (tmux 3.3a leaves it,
// also when the server ended by itself with its last session).
func (t tmuxServer) kill() {
	_ = t.cmd("kill-server").Run()
	dir := os.Getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	_ = os.Remove(filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Getuid()), t.sock))
}

// waitScreen polls target until cond holds on its screen.
func (t tmuxServer) waitScreen(target string, limit time.Duration, what string, cond func(string) bool) error {
	deadline := time.Now().Add(limit)
	for {
		s := t.capture(target)
		if cond(s) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: timed out waiting for %s; screen:\n%s", target, what, s)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (t tmuxServer) waitText(target, text string, limit time.Duration) error {
	return t.waitScreen(target, limit, fmt.Sprintf("%q", text), func(s string) bool { return strings.Contains(s, text) })
}

// cpuNS is the CPU time a process's threads have used (schedstat, ns).
func cpuNS(pid int) int64 {
	var sum int64
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if fs := strings.Fields(string(b)); len(fs) > 0 {
			n, _ := strconv.ParseInt(fs[0], 10, 64)
			sum += n
		}
	}
	return sum
}

// rssKB is a process's resident set (VmRSS, kB).
func rssKB(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return 0
}

// sandboxInitsKB sums the private memory (Private_Clean + Private_Dirty,
// smaps_rollup) of parent's sandbox inits — one small process per
// sandboxed session (workspace/sandbox) — and counts them. Their RSS is
// mostly alice's binary, shared with alice; this is what they add.
func sandboxInitsKB(parent int) (n, kb int) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil || !strings.HasPrefix(string(cmd), "alice-sandbox\x00") {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(stat), ')')
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 || f[1] != strconv.Itoa(parent) {
			continue
		}
		roll, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
		if err != nil {
			continue
		}
		n++
		for _, l := range strings.Split(string(roll), "\n") {
			for _, k := range []string{"Private_Clean:", "Private_Dirty:"} {
				if v, ok := strings.CutPrefix(l, k); ok {
					x, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
					kb += x
				}
			}
		}
	}
	return n, kb
}
