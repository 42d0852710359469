package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/alice-trading/alice/core/proctree"
)

// HeadlessRun is a one-shot, non-interactive run in a workspace: the
// agent's CLI in its batch mode (claude -p, codex exec) or a shell command
// (sh -c), on pipes, with a time limit.
type HeadlessRun struct {
	WorkspaceID string
	Agent       Agent
	// Prompt is the agent's prompt, or the shell command line.
	Prompt string
	// Model overrides the agent's model (claude --model, codex -m).
	Model string
	// Timeout bounds the run (DefaultHeadlessTimeout when 0).
	Timeout time.Duration
}

// HeadlessResult is what a run left: its output (the tail, capped), exit
// code, and the files it changed (compared with the workspace before).
type HeadlessResult struct {
	WorkspaceID string        `json:"workspaceId"`
	Command     string        `json:"command"`
	Output      string        `json:"output"`
	ExitCode    int           `json:"exitCode"`
	TimedOut    bool          `json:"timedOut,omitempty"`
	Duration    time.Duration `json:"durationNs"`
	Files       []FileDiff    `json:"files"`
}

// Headless limits.
const (
	DefaultHeadlessTimeout = 10 * time.Minute
	MaxHeadlessTimeout     = 2 * time.Hour
	maxHeadlessOutput      = 64 << 10
)

// ErrHeadlessFailed is wrapped by RunHeadless when the program ran but
// failed (non-zero exit or time limit); the result is still returned.
var ErrHeadlessFailed = errors.New("headless run failed")

// RunHeadless runs r to completion. The process gets its own process
// group, killed whole when the time limit passes or ctx ends, and every
// process that still carries the run's tag (process.go) is ended when it
// returns, so no child outlives the run; on Linux the whole group is also
// killed if the core dies (kill -9), so an abandoned task does not go on
// acting.
func (m *Manager) RunHeadless(ctx context.Context, r HeadlessRun) (HeadlessResult, error) {
	ws, ok := m.Get(r.WorkspaceID)
	if !ok {
		return HeadlessResult{}, fmt.Errorf("%w: %s", ErrWorkspaceNotFound, r.WorkspaceID)
	}
	if ws.Archived {
		return HeadlessResult{}, fmt.Errorf("workspace %s is archived", ws.Tag)
	}
	if strings.TrimSpace(r.Prompt) == "" {
		return HeadlessResult{}, errors.New("headless run: empty prompt")
	}
	if r.Timeout <= 0 {
		r.Timeout = DefaultHeadlessTimeout
	}
	r.Timeout = min(r.Timeout, MaxHeadlessTimeout)
	l, err := m.commandFor(r.Agent, ws, nil, false)
	if err != nil {
		return HeadlessResult{}, err
	}
	args := l.args
	switch r.Agent {
	case AgentClaude:
		if r.Model != "" {
			args = append(args, "--model", r.Model)
		}
		args = append(args, "-p", r.Prompt)
	case AgentCodex:
		args = append(args, "exec")
		if r.Model != "" {
			args = append(args, "-m", r.Model)
		}
		args = append(args, r.Prompt)
	default:
		args = append(args, "-c", r.Prompt)
	}
	before, headBefore := m.diffIndex(ws.ID), headCommit(ws.Dir)

	runCtx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	path, args := headlessCommand(l.path, args)
	cmd := exec.CommandContext(runCtx, path, args...)
	cmd.Dir = ws.Dir
	cmd.Env = append(m.sessionEnv(ws), l.env...)
	tag := proctree.TagCommand(cmd)
	out := &tailBuffer{max: maxHeadlessOutput}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = headlessProcAttr()
	if err := m.sandboxCmd(cmd, ws); err != nil {
		return HeadlessResult{}, err
	}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	// The child's parent-death signal follows this OS thread (Linux): keep
	// the thread, and so the child's tie to the core, until the run ends.
	runtime.LockOSThread()
	runErr := cmd.Run()
	runtime.UnlockOSThread()
	// Whatever left the process group (a daemon that ran setsid) and
	// still carries the run's tag goes too.
	proctree.End(proctree.Query{Tag: tag}.Find, killGrace)
	res := HeadlessResult{WorkspaceID: ws.ID, Command: displayCommand(r.Agent, r.Model), Output: out.String(),
		Duration: time.Since(start), ExitCode: cmd.ProcessState.ExitCode()}
	res.Files = m.changedSince(ws.ID, before, headBefore)
	switch {
	case errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		res.TimedOut = true
		return res, fmt.Errorf("%w: %s did not finish within %s (killed)", ErrHeadlessFailed, res.Command, r.Timeout)
	case ctx.Err() != nil:
		return res, ctx.Err()
	case runErr != nil:
		return res, fmt.Errorf("%w: %s exited %d: %s", ErrHeadlessFailed, res.Command, res.ExitCode, lastLines(res.Output, 5))
	}
	return res, nil
}

// displayCommand names the run without its prompt (which may be long).
func displayCommand(a Agent, model string) string {
	s := map[Agent]string{AgentClaude: "claude -p", AgentCodex: "codex exec"}[a]
	if s == "" {
		s = "sh -c"
	}
	if model != "" {
		s += " (model " + model + ")"
	}
	return s
}

// diffIndex maps each changed path to its patch (nil when the repository
// cannot be read: then every change after the run counts as the run's).
func (m *Manager) diffIndex(wsID string) map[string]string {
	d, err := m.Diff(wsID)
	if err != nil {
		return nil
	}
	idx := map[string]string{}
	for _, f := range d.Files {
		idx[f.Path] = f.Change + "\x00" + f.Patch
	}
	return idx
}

// changedSince lists the files whose change differs from before. A run
// that committed its work moved HEAD: its files are then the changes
// since the HEAD before the run (the diff base would not show them).
func (m *Manager) changedSince(wsID string, before map[string]string, headBefore string) []FileDiff {
	if w, ok := m.Get(wsID); ok && headBefore != "" && headCommit(w.Dir) != headBefore {
		if d, err := m.diffFrom(wsID, headBefore); err == nil {
			return d.Files
		}
	}
	d, err := m.Diff(wsID)
	if err != nil {
		return []FileDiff{}
	}
	out := []FileDiff{}
	for _, f := range d.Files {
		if prev, ok := before[f.Path]; !ok || prev != f.Change+"\x00"+f.Patch {
			out = append(out, f)
		}
	}
	return out
}

// lastLines is the last n non-empty lines of s, joined by " / ".
func lastLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if t := strings.TrimSpace(l); t != "" {
			lines = append(lines, t)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if len(lines) == 0 {
		return "(no output)"
	}
	return strings.Join(lines, " / ")
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu      sync.Mutex
	max     int
	buf     bytes.Buffer
	dropped bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
		t.dropped = true
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped {
		return "…(earlier output dropped)\n" + t.buf.String()
	}
	return t.buf.String()
}
