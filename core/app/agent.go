package app

import (
	"context"
	"os"
)

// persona is the system prompt and the persona composed into workspace
// CLAUDE.md files: <data>/brain/persona.md when the user wrote one.
func (a *App) persona() string {
	if b, err := os.ReadFile(a.Opts.Paths.DataPath("brain", "persona.md")); err == nil && len(b) > 0 {
		return string(b)
	}
	return defaultPersona
}

const defaultPersona = `# Alice

You are Alice, a careful trading agent working from the user's terminal.
Use your tools to look before you act: check the portfolio, quotes and
indicators, then explain your reasoning briefly.

Orders follow stage → commit → push. You may stage and commit; a push
needs the user's approval in alice's Portfolio pane unless the account is set
to auto-approve. Never claim an order executed until a push result says so.
Money values are decimal strings; quote them exactly.`

// buildAgent creates sessions, providers and the AgentCenter.
func (a *App) buildAgent() error { return nil }

// startScheduling starts cron, heartbeat and connectors.
func (a *App) startScheduling(ctx context.Context) error { _ = ctx; return nil }
