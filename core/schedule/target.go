package schedule

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/core"
)

// TargetKind says where a task runs.
type TargetKind string

// Execution targets: the in-process Alice (the default), a one-shot
// headless run in a workspace, or a turn of a persistent workspace session.
const (
	TargetAlice   TargetKind = "alice"
	TargetOneShot TargetKind = "oneshot"
	TargetSession TargetKind = "session"
)

// Target is a task's execution target (cron jobs, webhook tasks). nil or
// kind "alice" runs the prompt through the in-process agent.
type Target struct {
	Kind TargetKind `json:"kind"`
	// Workspace is a workspace id or tag; for a one-shot "" creates a new
	// workspace for the run.
	Workspace string `json:"workspace,omitempty"`
	// Agent is claude, codex or shell (for shell the prompt is the command
	// line); "" is the workspace's default agent (shell for a new one).
	Agent string `json:"agent,omitempty"`
	// Session is a live session's id or name for kind session ("" = the
	// workspace's first session of Agent, started when there is none).
	Session string `json:"session,omitempty"`
	// Model overrides the agent CLI's model (claude --model, codex -m).
	Model string `json:"model,omitempty"`
	// TimeoutSec bounds the run (default 600, at most 7200).
	TimeoutSec int `json:"timeoutSec,omitempty"`
}

// MaxTargetTimeout bounds Target.TimeoutSec.
const MaxTargetTimeout = 2 * time.Hour

// Validate checks a target and returns a clear error.
func (t *Target) Validate() error {
	if t == nil {
		return nil
	}
	switch t.Kind {
	case TargetAlice, "":
		if t.Workspace != "" || t.Agent != "" || t.Session != "" {
			return fmt.Errorf("target.kind %q runs in Alice; workspace, agent and session need kind oneshot or session", t.Kind)
		}
	case TargetOneShot, TargetSession:
		if t.Kind == TargetSession && strings.TrimSpace(t.Workspace) == "" {
			return fmt.Errorf("target.workspace is required for kind session (the workspace whose session continues)")
		}
	default:
		return fmt.Errorf("target.kind must be alice, oneshot or session, got %q", t.Kind)
	}
	switch t.Agent {
	case "", "claude", "codex", "shell":
	default:
		return fmt.Errorf("target.agent must be claude, codex or shell, got %q", t.Agent)
	}
	if t.TimeoutSec < 0 || time.Duration(t.TimeoutSec)*time.Second > MaxTargetTimeout {
		return fmt.Errorf("target.timeoutSec must be 0..%d", int(MaxTargetTimeout.Seconds()))
	}
	if t.Workspace != "" {
		if err := core.ValidateWorkspaceRef(t.Workspace); err != nil {
			return fmt.Errorf("target.workspace: %w", err)
		}
	}
	if len(t.Workspace) > 200 || len(t.Session) > 200 || len(t.Model) > 200 {
		return fmt.Errorf("target fields are limited to 200 characters")
	}
	return nil
}

// InWorkspace reports whether the target leaves the in-process Alice.
func (t *Target) InWorkspace() bool {
	return t != nil && (t.Kind == TargetOneShot || t.Kind == TargetSession)
}

// normalized drops an in-process target (stored as nil).
func (t *Target) normalized() *Target {
	if !t.InWorkspace() {
		return nil
	}
	c := *t
	return &c
}

// Runner runs a task in a workspace. core/schedule declares it; app wires
// the workspace implementation (core imports no domain package).
type Runner interface {
	RunTarget(ctx context.Context, t Target, prompt string, meta map[string]any) (RunResult, error)
}

// RunResult is what a workspace run produced: Summary goes to the user's
// channel and the event log; Detail (workspace, files, inbox entry, exit
// code, reply) goes into the agent.work.done payload.
type RunResult struct {
	Summary string
	Detail  map[string]any
}
