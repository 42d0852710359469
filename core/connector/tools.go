package connector

import (
	"context"
	"encoding/json"

	"github.com/alice-trading/alice/core"
)

// RegisterTools adds listConnectors (group session): the registered
// channels with their capabilities and the last interaction, so the agent
// knows where a notification would go.
func RegisterTools(reg core.ToolRegistry, c *Center) {
	reg.Register(core.Tool{
		Name: "listConnectors", Group: "session",
		Description: "List the channels Alice can reach the user on (TUI, Telegram, Ask) and the one the user last interacted through; notifications go there, while approval requests go to every human channel (capabilities.human) that is up.",
		InputSchema: core.Schema(`{"type":"object","properties":{}}`),
		Handler: func(_ context.Context, args json.RawMessage) (any, error) {
			if err := core.DecodeArgs(args, &struct{}{}); err != nil {
				return nil, err
			}
			out := map[string]any{"connectors": c.Connectors(), "lastInteraction": nil}
			if li, ok := c.Last(); ok {
				out["lastInteraction"] = li
			}
			return out, nil
		},
	})
}
