package schedule

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/alice-trading/alice/core"
)

// maxListedTasks bounds one workList answer.
const maxListedTasks = 200

// RegisterWorkTools adds workList and workRetry: the durable queue seen
// and steered from MCP (the Activity pane uses the same Worker methods).
func RegisterWorkTools(reg core.ToolRegistry, w *Worker) {
	reg.Register(
		core.Tool{Name: "workList", Group: "cron", Description: "List queued, running and recent agent work (cron, heartbeat, webhook tasks) with state, key and error. Filter by state: queued, running, done, skipped, failed, abandoned.",
			InputSchema: core.Schema(`{"type":"object","properties":{"state":{"type":"string","enum":["queued","running","done","skipped","failed","abandoned"]},"limit":{"type":"integer","minimum":1,"maximum":200}}}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var in struct {
					State TaskState `json:"state"`
					Limit int       `json:"limit"`
				}
				if err := core.DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				var states []TaskState
				if in.State != "" {
					if !in.State.Final() && in.State != TaskQueued && in.State != TaskRunning {
						return nil, toolError(fmt.Sprintf("state must be queued, running, done, skipped, failed or abandoned, got %q", in.State))
					}
					states = []TaskState{in.State}
				}
				if in.Limit <= 0 || in.Limit > maxListedTasks {
					in.Limit = 50
				}
				tasks := w.Tasks(states...)
				total := len(tasks)
				if len(tasks) > in.Limit {
					tasks = tasks[:in.Limit]
				}
				return map[string]any{"tasks": tasks, "total": total}, nil
			}},
		core.Tool{Name: "workRetry", Group: "cron", Description: "Run a failed or abandoned task again (as a new task caused by the old one's outcome). workList shows the ids.",
			InputSchema: core.Schema(`{"type":"object","properties":{"taskId":{"type":"string"}},"required":["taskId"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var in struct {
					TaskID string `json:"taskId"`
				}
				if err := core.DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				if in.TaskID == "" {
					return nil, toolError("taskId is required (workList shows the ids)")
				}
				t, err := w.Retry(in.TaskID)
				if err != nil {
					return nil, err
				}
				return map[string]any{"retried": in.TaskID, "task": t}, nil
			}},
	)
}
