package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

const (
	aliceT = "alice" // outer session running alice
	tmuxT  = "tmux"  // outer session running a client of the bare tmux
	innerT = "in"    // the bare tmux's session
)

type bench struct {
	cfg          config
	outer, inner tmuxServer
	icols, irows int // the pane's inner size
	alicePID     int
	serverPID    int
	clientPID    int
	res          []result
}

type result struct {
	name        string
	alice, tmux float64
	unit        string
}

func (b *bench) add(name, unit string, a, t float64) {
	b.res = append(b.res, result{name, a, t, unit})
	fmt.Printf("  %-30s alice %9.2f %-4s tmux %9.2f %-4s\n", name, a, unit, t, unit)
}

func (b *bench) close() {
	if b.alicePID > 0 {
		_ = b.outer.keys(aliceT, "C-q")
		_ = b.outer.keys(aliceT, "C-c")
		_ = b.outer.keys(aliceT, "y")
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) && procAlive(b.alicePID) {
			time.Sleep(50 * time.Millisecond)
		}
	}
	b.inner.kill()
	b.outer.kill()
}

func procAlive(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
	return err == nil
}

func (b *bench) run() error {
	if err := b.setup(); err != nil {
		return err
	}
	fmt.Printf("alice %s: outer %dx%d, pane inner %dx%d; bare tmux pane %dx%d\n",
		b.cfg.alice, b.cfg.cols, b.cfg.rows, b.icols, b.irows, b.icols, b.irows)
	c := b.cfg
	if c.wants("rss") {
		time.Sleep(3 * time.Second)
		b.add("RSS, 1 session", "MB", float64(rssKB(b.alicePID))/1024, float64(rssKB(b.serverPID))/1024)
	}
	if c.wants("idle") {
		b.idleCPU()
	}
	if c.wants("echo") {
		if err := b.echo("echo idle", true); err != nil {
			return err
		}
	}
	if c.wants("esc") {
		if err := b.escKeys(); err != nil {
			return err
		}
	}
	if c.wants("frames") {
		if err := b.frames(); err != nil {
			return err
		}
	}
	for _, kind := range []string{"plain", "coloured"} {
		if !c.wants("cat") {
			break
		}
		if err := b.cat(kind); err != nil {
			return err
		}
	}
	if c.wants("gradient") {
		if err := b.cat("gradient"); err != nil {
			return err
		}
	}
	// The busy sessions serve both the RSS with 22 sessions and the loaded
	// echo.
	if c.wants("busy") || c.wants("rss") {
		if err := b.startBusy(); err != nil {
			return err
		}
		time.Sleep(3 * time.Second)
	}
	if c.wants("rss") {
		b.add(fmt.Sprintf("RSS, %d sessions", b.cfg.busy+2), "MB", float64(rssKB(b.alicePID))/1024, float64(rssKB(b.serverPID))/1024)
		if n, kb := sandboxInitsKB(b.alicePID); n > 0 {
			b.add(fmt.Sprintf("+ %d sandbox inits (private)", n), "MB", float64(kb)/1024, 0)
		}
	}
	if c.wants("busy") {
		b.cpu(fmt.Sprintf("CPU, %d busy, over %s", b.cfg.busy, b.cfg.busyCPU), b.cfg.busyCPU)
		if err := b.outputRate(fmt.Sprintf("drawn, %d busy", b.cfg.busy), 5*time.Second); err != nil {
			return err
		}
		if err := b.echo(fmt.Sprintf("echo, %d busy", b.cfg.busy), false); err != nil {
			return err
		}
	}
	b.report()
	return nil
}

func (b *bench) report() {
	fmt.Println()
	fmt.Printf("%-32s %10s %10s %12s\n", "measure", "alice", "tmux", "alice/tmux")
	for _, r := range b.res {
		ratio := "-"
		if r.tmux > 0 {
			ratio = fmt.Sprintf("%.2f", r.alice/r.tmux)
		}
		fmt.Printf("%-32s %10.2f %10.2f %12s  %s\n", r.name, r.alice, r.tmux, ratio, r.unit)
	}
}

// idleCPU measures both sides over the same quiet window.
func (b *bench) idleCPU() { b.cpu(fmt.Sprintf("idle CPU over %s", b.cfg.idle), b.cfg.idle) }

// cpu measures both sides' CPU (% of a core) over the same window d: the
// alice process against the tmux server and client.
func (b *bench) cpu(name string, d time.Duration) {
	a0, s0, c0 := cpuNS(b.alicePID), cpuNS(b.serverPID), cpuNS(b.clientPID)
	start := time.Now()
	time.Sleep(d)
	el := float64(time.Since(start).Nanoseconds())
	a := float64(cpuNS(b.alicePID)-a0) / el * 100
	t := float64(cpuNS(b.serverPID)-s0+cpuNS(b.clientPID)-c0) / el * 100
	b.add(name, "%", a, t)
}

// outputRate counts, over the same window d on both sides, the bytes each
// side's pane writes to the outer terminal while nobody types: what the
// UI redraws for sessions the person is not looking at.
func (b *bench) outputRate(name string, d time.Duration) error {
	var cs []*controlClient
	for _, side := range []string{aliceT, tmuxT} {
		c, err := b.outer.control(side)
		if err != nil {
			return err
		}
		defer c.close()
		cs = append(cs, c)
	}
	n := make([]int, len(cs))
	time.Sleep(200 * time.Millisecond)
	for _, c := range cs {
		c.drain()
	}
	end := time.After(d)
	for {
		select {
		case s := <-cs[0].output:
			n[0] += len(s)
		case s := <-cs[1].output:
			n[1] += len(s)
		case <-end:
			sec := d.Seconds()
			b.add(name, "B/s", float64(n[0])/sec, float64(n[1])/sec)
			return nil
		}
	}
}

// echo types one character at a time into each side in turn and times
// until the character comes out of the side's pane (control clients, see
// controlClient). perKey also reports the CPU each side spent per echoed
// key (alice's process against the tmux server and client; only
// meaningful while nothing else runs).
func (b *bench) echo(name string, perKey bool) error {
	var da, dt []time.Duration
	ctl, err := b.controls(b.clearScreen)
	if err != nil {
		return err
	}
	defer closeControls(ctl)
	a0, t0 := cpuNS(b.alicePID), cpuNS(b.serverPID)+cpuNS(b.clientPID)
	for i := 0; i < b.cfg.echo; i++ {
		for _, side := range []string{aliceT, tmuxT} {
			if i%20 == 0 {
				if err := b.clearLine(side); err != nil {
					return err
				}
			}
			d, err := ctl[side].typeAndWait(side, ch, ch, 3*time.Second)
			if err != nil {
				// A lost keystroke is reported, typed again and timed
				// from the second try.
				fmt.Printf("  %s: keystroke %d: %v; typing it again\n", side, i, err)
				if d, err = ctl[side].typeAndWait(side, ch, ch, 10*time.Second); err != nil {
					return err
				}
			}
			if side == aliceT {
				da = append(da, d)
			} else {
				dt = append(dt, d)
			}
		}
	}
	a1, t1 := cpuNS(b.alicePID), cpuNS(b.serverPID)+cpuNS(b.clientPID)
	b.add(name+" p50", "ms", ms(pct(da, 50)), ms(pct(dt, 50)))
	b.add(name+" p90", "ms", ms(pct(da, 90)), ms(pct(dt, 90)))
	if perKey && b.alicePID != 0 {
		n := float64(b.cfg.echo)
		b.add(name+" CPU per key", "µs", float64(a1-a0)/n/1e3, float64(t1-t0)/n/1e3)
	}
	// The whole distribution, to tell a constant cost per keystroke from
	// a tail.
	for _, side := range []struct {
		name string
		ds   []time.Duration
	}{{"alice", da}, {"tmux", dt}} {
		fmt.Printf("  %s %-5s p10..p99:", name, side.name)
		for _, p := range []int{10, 25, 50, 75, 90, 95, 99} {
			fmt.Printf(" %.3f", ms(pct(side.ds, p)))
		}
		fmt.Println(" ms")
	}
	// Both sides: a line left full of keys would run as part of the next
	// command typed there.
	for _, side := range []string{aliceT, tmuxT} {
		if err := b.clearLine(side); err != nil {
			return err
		}
	}
	return nil
}

// escKeys times keys that start with ESC, which a terminal reader must
// tell apart from the start of a sequence: a lone Escape, alt+a and alt+[
// (the start of every CSI sequence), echoed by the shell's line discipline
// as ^[, ^[a and ^[[. tmux here runs
// with escape-time 0 (it hands a lone ESC on at once); alice holds a lone
// ESC for its escape hold.
func (b *bench) escKeys() error {
	keys := []struct{ name, key, want string }{
		{"Escape", "Escape", "^["},
		{"alt+a", "M-a", "^[a"},
		{"alt+[", "M-[", "^[["},
	}
	got := map[string][2][]time.Duration{}
	ctl, err := b.controls(b.clearLine)
	if err != nil {
		return err
	}
	defer closeControls(ctl)
	n := max(10, b.cfg.echo/4)
	for i := 0; i < n; i++ {
		for _, k := range keys {
			for s, side := range []string{aliceT, tmuxT} {
				if i%8 == 0 && k.name == keys[0].name {
					if err := b.clearLine(side); err != nil {
						return err
					}
				}
				d, err := ctl[side].pressAndWait(side, k.key, k.want, 3*time.Second)
				if err != nil {
					return err
				}
				v := got[k.name]
				v[s] = append(v[s], d)
				got[k.name] = v
			}
		}
	}
	for _, k := range keys {
		b.add(k.name+" echo p50", "ms", ms(pct(got[k.name][0], 50)), ms(pct(got[k.name][1], 50)))
	}
	for _, side := range []string{aliceT, tmuxT} {
		if err := b.clearLine(side); err != nil {
			return err
		}
	}
	return nil
}

// controls clears each side with clear and attaches a control client to
// it; closeControls ends them.
func (b *bench) controls(clear func(side string) error) (map[string]*controlClient, error) {
	ctl := map[string]*controlClient{}
	for _, side := range []string{aliceT, tmuxT} {
		err := clear(side)
		var c *controlClient
		if err == nil {
			c, err = b.outer.control(side)
		}
		if err != nil {
			closeControls(ctl)
			return nil, err
		}
		ctl[side] = c
	}
	return ctl, nil
}

func closeControls(ctl map[string]*controlClient) {
	for _, c := range ctl {
		c.close()
	}
}

// ch is the echoed key: in none of the bench's own output.
const ch = "^"

func (b *bench) clearLine(side string) error {
	if err := b.outer.keys(side, "C-u"); err != nil {
		return err
	}
	return b.outer.waitScreen(side, 10*time.Second, "a clear line", func(s string) bool { return !strings.Contains(s, ch) })
}

// clearScreen runs clear and waits until the sentinel is gone.
func (b *bench) clearScreen(side string) error {
	if err := b.outer.line(side, "clear"); err != nil {
		return err
	}
	return b.outer.waitScreen(side, 10*time.Second, "a cleared screen", func(s string) bool { return !strings.Contains(s, sentinel) })
}

// timed types cmd and returns the time until the sentinel shows.
func (b *bench) timed(side, cmd string) (time.Duration, error) {
	if err := b.clearScreen(side); err != nil {
		return 0, err
	}
	start := time.Now()
	if err := b.outer.line(side, cmd); err != nil {
		return 0, err
	}
	err := b.outer.waitScreen(side, 5*time.Minute, sentinel, func(s string) bool { return strings.Contains(s, sentinel) })
	return time.Since(start), err
}

var frameRe = regexp.MustCompile(`([A-Z])FRAME (\d{6})([A-Z])`)

func (b *bench) frames() error {
	var fa, fb []time.Duration
	var na, nb []float64
	cmd := fmt.Sprintf("%s -frames %d", b.cfg.self, b.cfg.frames)
	for r := 0; r < b.cfg.runs; r++ {
		for _, side := range []string{aliceT, tmuxT} {
			out := filepath.Join(b.cfg.work, fmt.Sprintf("frames-%s-%d.out", side, r))
			if err := b.clearScreen(side); err != nil {
				return err
			}
			if err := b.outer.run("pipe-pane", "-O", "-t", side, "cat > "+out); err != nil {
				return err
			}
			d, err := b.timed(side, cmd)
			_ = b.outer.run("pipe-pane", "-t", side)
			if err != nil {
				return err
			}
			n := countFrames(out)
			if side == aliceT {
				fa, na = append(fa, d), append(na, float64(n))
			} else {
				fb, nb = append(fb, d), append(nb, float64(n))
			}
		}
	}
	b.add(fmt.Sprintf("%d frames: finish", b.cfg.frames), "s", pct(fa, 50).Seconds(), pct(fb, 50).Seconds())
	b.add("frames drawn", "", median(na), median(nb))
	b.add("frames drawn per second", "/s", median(na)/pct(fa, 50).Seconds(), median(nb)/pct(fb, 50).Seconds())
	return nil
}

// countFrames counts distinct frame labels in what the pane wrote to the
// outer terminal, escape sequences removed.
func countFrames(path string) int {
	raw, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	seen := map[int]bool{}
	for _, m := range frameRe.FindAllStringSubmatch(stripANSI(string(raw)), -1) {
		n, _ := strconv.Atoi(m[2])
		if m[1] == m[3] && m[1][0] == byte('A'+n%26) {
			seen[n] = true
		}
	}
	return len(seen)
}

var ansiRe = regexp.MustCompile(`\x1b(\[[0-9;:?<=>]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78DEHMNOZc])`)

func stripANSI(s string) string { return ansiRe.ReplaceAllString(s, "") }

// cat times cat of a file of the kind (writeCatFile) on both sides.
func (b *bench) cat(kind string) error {
	file := filepath.Join(b.cfg.work, kind+".txt")
	if err := writeCatFile(file, b.cfg.catMB, kind); err != nil {
		return err
	}
	cmd := fmt.Sprintf("cat %s; printf 'DONE-%%s\\n' $((40+2))", file)
	var da, dt []time.Duration
	for r := 0; r < b.cfg.runs; r++ {
		for _, side := range []string{aliceT, tmuxT} {
			d, err := b.timed(side, cmd)
			if err != nil {
				return err
			}
			if side == aliceT {
				da = append(da, d)
			} else {
				dt = append(dt, d)
			}
		}
	}
	name := fmt.Sprintf("cat %d MB %s", b.cfg.catMB, kind)
	if kind == "gradient" {
		name = fmt.Sprintf("cat %d gradient lines", gradientLines)
	}
	b.add(name, "s", pct(da, 50).Seconds(), pct(dt, 50).Seconds())
	return os.Remove(file)
}
