package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/alice-trading/alice/workspace/wsapi"
)

// runWorkspaceSend is `alice workspace send ID|TAG TEXT [--draft]
// [--session NAME]`: it types TEXT into a session of the workspace
// without attaching, through the running instance (the same path as the
// TUI's send line and the workspaceSend tool).
func runWorkspaceSend(ctx context.Context, e *env, b wsapi.Backend, args []string) int {
	if len(args) < 2 {
		return e.errorf(`workspace send: want ID|TAG and the text (e.g. alice workspace send research "summarise the diff")`)
	}
	text := strings.Join(args[1:], " ")
	draft := e.flag("draft") != ""
	if strings.TrimSpace(text) == "" {
		return e.errorf("workspace send: the text is empty")
	}
	if err := b.Send(ctx, args[0], wsapi.SendRequest{Session: e.flag("session"), Text: text, Draft: draft}); err != nil {
		return e.errorf("workspace send: %v", err)
	}
	if draft {
		fmt.Fprintf(e.stdout, "typed into %s (not submitted: --draft)\n", args[0])
	} else {
		fmt.Fprintf(e.stdout, "sent to %s\n", args[0])
	}
	return 0
}
