package app

import (
	"context"
	"fmt"
	"math"

	"github.com/alice-trading/alice/core/agent"
	"github.com/alice-trading/alice/core/aitools"
	"github.com/alice-trading/alice/core/channel"
	"github.com/alice-trading/alice/core/connector"
	"github.com/alice-trading/alice/core/provider"
	"github.com/alice-trading/alice/core/session"
	"github.com/alice-trading/alice/mcp"
	"github.com/alice-trading/alice/trading/watchlist"
	"github.com/alice-trading/alice/workspace"
)

// persona is the system prompt and the persona composed into workspace
// CLAUDE.md files: <data>/brain/persona.md when the user wrote one, else
// the built-in persona; re-read on every call.
func (a *App) persona() string {
	return agent.PersonaFile(a.opts.Paths.DataPath("brain", "persona.md"))()
}

// buildAgent creates sessions, the provider router, the AgentCenter, the
// agent's own tools and the Ask connector.
func (a *App) buildAgent() error {
	o := a.opts
	sessions, err := session.NewStore(o.Paths.DataPath("sessions"))
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	a.sessions = sessions
	for id, rep := range sessions.Healed() {
		a.log.Warn("Healed a torn session tail", "session", id, "cutBytes", rep.Cut, "keptIn", rep.TornPath, "salvaged", rep.Salvaged)
	}
	a.router = provider.NewRouter(o.Store, a.mcp.URL).WithCLIDir(o.Paths.DataPath("brain"))
	a.channels = channel.New(o.Store, sessions)
	a.watchlist = watchlist.Open(o.Paths.Data)
	a.agent = agent.New(agent.Deps{Sessions: sessions, Router: a.router, Tools: a.tools, Config: o.Store,
		Persona: a.persona, DataDir: o.Paths.Data, Logger: a.log.With("component", "agent"), Channels: a.channels})
	aitools.Register(a.tools, sessions)
	a.registerCostTools()

	conn, err := o.Store.Connectors()
	if err != nil {
		return err
	}
	mcpCfg, _ := o.Store.MCP()
	if p, ok := envPort("ALICE_ASK_PORT"); ok {
		conn.MCPAsk.Port = p
	}
	if mcp.AskEnabled(conn.MCPAsk) {
		askListen := mcp.ListenFromAsk(conn.MCPAsk, mcpCfg)
		askListen.TokenSource = newLiveToken(conn.MCPAsk.Token, func() (string, error) {
			c, err := o.Store.Connectors()
			return c.MCPAsk.Token, err
		}).Get
		a.ask = mcp.NewAsk(mcp.AskOptions{
			Listen:   askListen,
			Asker:    askAdapter{a},
			Sessions: askSessions{sessions},
			Recorder: a,
			Logger:   a.log.With("component", "mcp-ask"),
			Version:  o.Version,
		})
	}
	return nil
}

// Watchlist is the Market pane's persisted watchlist.
func (a *App) Watchlist() *watchlist.Store { return a.watchlist }

// workspaceAgentOverride applies channels.json "workspaces" (by tag, else
// id) to the claude or codex CLI started in a workspace.
func (a *App) workspaceAgentOverride(ws workspace.Workspace, ag workspace.Agent) ([]string, []string, error) {
	c, err := a.opts.Store.Channels()
	if err != nil {
		return nil, nil, err
	}
	o, ok := c.Workspaces[ws.Tag]
	if !ok {
		if o, ok = c.Workspaces[ws.ID]; !ok {
			return nil, nil, nil
		}
	}
	l, err := a.router.WorkspaceAgent(o.Profile, string(ag))
	return l.Args, l.Env, err
}

// ProviderLabel describes the provider a channel would use now.
func (a *App) ProviderLabel(channel string) string { return a.agent.ProviderLabel(channel) }

// Notifications streams user notifications until ctx ends.
func (a *App) Notifications(ctx context.Context) <-chan connector.Notification {
	return a.notes.Subscribe(ctx)
}

// Touch records the last channel the user interacted through.
func (a *App) Touch(channel, to string) {
	if a.connectors != nil {
		a.connectors.Touch(channel, to)
	}
}

// askAdapter routes Ask connector messages through the AgentCenter with the
// connector's preamble.
type askAdapter struct{ a *App }

func (x askAdapter) AskWithSession(ctx context.Context, message, sessionID string) (string, error) {
	s, err := x.a.agent.AskWithSession(ctx, message, sessionID, agent.Options{
		Channel:  mcp.AskChannel,
		Preamble: "You are operating via the MCP Ask connector (session: " + sessionID + "). The following is the conversation from an external MCP client.",
	})
	if err != nil {
		return "", err
	}
	res, err := s.Wait()
	return res.Text, err
}

// askSessions lists and reads sessions for the Ask connector.
type askSessions struct{ s *session.Store }

func (x askSessions) ListSessions(prefix string) ([]string, error) {
	page, err := x.s.ListPage(session.ListOptions{Prefix: prefix})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(page.Sessions))
	for _, i := range page.Sessions {
		out = append(out, i.ID)
	}
	return out, nil
}

// History reads only the newest limit messages (backwards from the end of
// the session file); limit <= 0 reads the whole active window. Tool calls
// and results are included as "[Tool: name {json}]" / "[Result: …]" lines
// (each cut to 200 characters), as OpenAlice's getSessionHistory returns.
func (x askSessions) History(sessionID string, limit int) ([]mcp.Message, error) {
	if limit <= 0 {
		limit = math.MaxInt32
	}
	msgs, _, err := x.s.TextTail(sessionID, limit, 0, true)
	if err != nil {
		return nil, err
	}
	out := make([]mcp.Message, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, mcp.Message{Role: m.Role, Text: m.Text})
	}
	return out, nil
}
