package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/alice-trading/alice/workspace/wsapi"
)

// runWorkspaceRun is `alice workspace run ID|TAG TEXT`: a one-shot
// headless run (or, with --dialog, a turn of the persistent session) in
// the workspace, queued as a task by the running instance. Exit status 1
// when the run failed, with its recorded error.
func runWorkspaceRun(e *env, b wsapi.Backend, rest []string) int {
	if len(rest) < 2 {
		return e.errorf("workspace run: want ID|TAG TEXT (e.g. alice workspace run research --agent shell 'make report')")
	}
	req := wsapi.RunRequest{Mode: "oneshot", Agent: e.flag("agent"), Model: e.flag("model"), Session: e.flag("session"),
		Prompt: strings.Join(rest[1:], " ")}
	if e.flag("dialog") != "" {
		req.Mode = "session"
	}
	limit := 10 * time.Minute
	if t := e.flag("timeout"); t != "" {
		n, err := strconv.Atoi(t)
		if err != nil || n <= 0 {
			return e.errorf("workspace run: --timeout wants seconds, got %q", t)
		}
		req.TimeoutSec, limit = n, time.Duration(n)*time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit+time.Minute)
	defer cancel()
	res, err := b.Run(ctx, rest[0], req)
	if err != nil {
		return e.errorf("workspace run: %v", err)
	}
	if e.flag("json") != "" {
		if code := printJSON(e, res); code != 0 || res.Error == "" {
			return code
		}
		return 1
	}
	if res.TaskID != "" {
		fmt.Fprintf(e.stdout, "task %s\n", res.TaskID)
	}
	for _, s := range []string{res.Summary, res.Output} {
		if strings.TrimSpace(s) != "" {
			fmt.Fprintln(e.stdout, strings.TrimRight(s, "\n"))
		}
	}
	if len(res.Files) > 0 {
		fmt.Fprintf(e.stdout, "changed: %s\n", strings.Join(res.Files, ", "))
	}
	if res.Error != "" {
		return e.errorf("workspace run failed: %s", res.Error)
	}
	return 0
}
