package wsapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/alice-trading/alice/workspace"
)

// RunRequest asks for work in a workspace: a one-shot headless run (mode
// oneshot: claude -p, codex exec or sh -c) or a turn of a persistent
// session (mode session).
type RunRequest struct {
	Mode       string `json:"mode"` // oneshot | session
	Agent      string `json:"agent,omitempty"`
	Model      string `json:"model,omitempty"`
	Session    string `json:"session,omitempty"`
	Prompt     string `json:"prompt"`
	TimeoutSec int    `json:"timeoutSec,omitempty"`
}

// RunResult is what the run produced. Error is set when the run itself
// failed (the CLI missing or not logged in, a non-zero exit, the limit).
type RunResult struct {
	WorkspaceID string   `json:"workspaceId,omitempty"`
	TaskID      string   `json:"taskId,omitempty"` // the work-queue task (running instance)
	Summary     string   `json:"summary,omitempty"`
	Output      string   `json:"output,omitempty"`
	ExitCode    int      `json:"exitCode"`
	Files       []string `json:"files,omitempty"`
	Error       string   `json:"error,omitempty"`
}

func (r RunRequest) validate() error {
	if strings.TrimSpace(r.Prompt) == "" {
		return fmt.Errorf("%w: prompt is required", ErrBadRequest)
	}
	if r.Mode != "oneshot" && r.Mode != "session" {
		return fmt.Errorf("%w: mode must be oneshot or session, got %q", ErrBadRequest, r.Mode)
	}
	if r.TimeoutSec < 0 || time.Duration(r.TimeoutSec)*time.Second > workspace.MaxHeadlessTimeout {
		return fmt.Errorf("%w: timeoutSec must be 0..%d", ErrBadRequest, int(workspace.MaxHeadlessTimeout.Seconds()))
	}
	return nil
}

// Run runs the request: through Queue (the running instance's durable
// work queue) when set, else directly on the manager.
func (s Service) Run(ctx context.Context, idOrTag string, req RunRequest) (RunResult, error) {
	if err := req.validate(); err != nil {
		return RunResult{}, err
	}
	w, ok := s.M.Get(idOrTag)
	if !ok {
		return RunResult{}, fmt.Errorf("%w: %s", workspace.ErrWorkspaceNotFound, idOrTag)
	}
	if s.Queue != nil {
		return s.Queue(ctx, w.ID, req)
	}
	timeout := time.Duration(req.TimeoutSec) * time.Second
	if req.Mode == "session" {
		res, err := s.M.Converse(ctx, workspace.DialogTurn{WorkspaceID: w.ID, Session: req.Session, Agent: workspace.Agent(req.Agent), Prompt: req.Prompt, Timeout: timeout})
		out := RunResult{WorkspaceID: w.ID, Output: res.Reply, Summary: res.Session + " replied"}
		if err != nil {
			out.Error = err.Error()
		}
		return out, nil
	}
	agent := workspace.Agent(req.Agent)
	if agent == "" {
		agent = workspace.AgentShell
		if len(w.Agents) > 0 {
			agent = w.Agents[0]
		}
	}
	res, err := s.M.RunHeadless(ctx, workspace.HeadlessRun{WorkspaceID: w.ID, Agent: agent, Prompt: req.Prompt, Model: req.Model, Timeout: timeout})
	out := RunResult{WorkspaceID: w.ID, Output: res.Output, ExitCode: res.ExitCode, Summary: res.Command}
	for _, f := range res.Files {
		out.Files = append(out.Files, f.Path)
	}
	if err != nil {
		if res.Command == "" {
			return RunResult{}, err // never started
		}
		out.Error = err.Error()
	}
	return out, nil
}

// Run asks the running instance; the wait is the run's own limit plus a
// margin (the shared client's 30 s would cut a long run short).
func (c *Client) Run(ctx context.Context, idOrTag string, req RunRequest) (RunResult, error) {
	limit := time.Duration(req.TimeoutSec) * time.Second
	if limit <= 0 {
		limit = workspace.DefaultHeadlessTimeout
	}
	cc := *c
	hc := *c.HTTP
	hc.Timeout = limit + time.Minute
	cc.HTTP = &hc
	var out RunResult
	return out, cc.do(ctx, http.MethodPost, "/api/workspaces/"+url.PathEscape(idOrTag)+"/run", req, &out)
}

// errRunFailed lets callers tell a failed run from a failed request.
var errRunFailed = errors.New("run failed")

// RunError turns a result's Error into an error (nil when it succeeded).
func (r RunResult) RunError() error {
	if r.Error == "" {
		return nil
	}
	return fmt.Errorf("%w: %s", errRunFailed, r.Error)
}
