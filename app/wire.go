package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/inbox"
	"github.com/alice-trading/alice/mcp"
	tradetools "github.com/alice-trading/alice/trading/tools"
	"github.com/alice-trading/alice/trading/uta"
	"github.com/alice-trading/alice/workspace"
	"github.com/alice-trading/alice/workspace/agentstate"
)

// build creates the domain components in the architecture's order. Nothing
// here opens a port or starts a loop; start does that.
func (a *App) build() error {
	o := a.opts
	log := a.log

	// Trading: accounts, brokers, TradingGit, guards, snapshots.
	a.realPrices = &realPriceFeed{}
	a.trading = uta.NewManager(o.Store, o.Paths, a.market, a.events, log.With("component", "trading"), uta.WithPriceFeed(a.realPrices), uta.WithGetenv(a.creds.getenv))
	tradetools.Register(a.tools, a.trading)
	if err := a.buildResearch(); err != nil {
		return err
	}

	// Inbox + the workspace-scoped inbox_push tool.
	ib, err := inbox.Open(o.Paths.DataPath("inbox", "entries.jsonl"), log.With("component", "inbox"))
	if err != nil {
		return fmt.Errorf("open inbox: %w", err)
	}
	a.inbox = ib
	a.onClose("inbox", func(context.Context) error { return ib.Close() })
	a.wsTools.Register(inbox.PushToolFactory(ib), inbox.ReadToolFactory(ib))

	// The main MCP listener is built now (it binds in start) so that the
	// workspace manager can ask it for the bound URL.
	mcpCfg, err := o.Store.MCP()
	if err != nil {
		return err
	}
	if p, ok := envPort("ALICE_MCP_PORT"); ok {
		mcpCfg.Port = p
	}
	mainListen := mcp.ListenFromMCP(mcpCfg)
	mainListen.TokenSource = newLiveToken(mcpCfg.Token, func() (string, error) {
		c, err := o.Store.MCP()
		return c.Token, err
	}).Get
	a.mcp = mcp.NewMain(mcp.MainOptions{
		Listen:          mainListen,
		Tools:           a.tools,
		Workspaces:      a.wsTools,
		LookupWorkspace: func(id string) (coreIdentity, bool) { return a.workspaces.Lookup(id) },
		Logger:          log.With("component", "mcp"),
		Version:         o.Version,
	})

	wsCfg, err := o.Store.Workspaces()
	if err != nil {
		return err
	}
	ws, err := workspace.NewManager(workspace.Options{
		Root:            o.Paths.DataPath("workspaces"),
		MCPURL:          a.mcp.URL,
		Persona:         a.persona,
		Logger:          log.With("component", "workspace"),
		ScrollbackLines: wsCfg.ScrollbackLines,
		ScrollbackBytes: int64(wsCfg.ScrollbackBudgetMB) << 20,
		// <config>/agent-rules/<agent>.json replace the built-in agent state rules.
		AgentRulesDir: filepath.Join(o.Paths.Config, agentstate.RulesDirName),
		AgentOverride: a.workspaceAgentOverride,
		// Sessions and one-shot runs cannot see alice's own files
		// (accounts.json, operator.key, logs), only their workspace.
		// Nor the environment variables alice's credentials come from.
		// Nor other alice homes of this user (another instance's operator
		// key and TUI), registered as each core starts (config.RegisterHome).
		Sandbox: workspace.SandboxOptions{Hide: o.Paths.Private(), Mode: wsCfg.Sandbox, HideEnv: a.creds.list,
			HideMore: a.homes.Others, ReadOnly: config.Protected()},
	})
	if err != nil {
		return fmt.Errorf("workspaces: %w", err)
	}
	a.workspaces = ws
	a.onClose("workspaces", func(context.Context) error { return ws.Close() })
	workspace.RegisterTools(a.tools, ws, a.events)
	a.mountWorkspaceAPI()
	if err := a.mountHaltAPI(); err != nil {
		return err
	}

	if err := a.buildAgent(); err != nil {
		return err
	}
	return a.buildScheduling()
}

// start opens listeners and background loops.
func (a *App) start(ctx context.Context) error {
	// Before any session: the other homes' sandboxes hide this one.
	if err := a.homes.Register(a.opts.Paths); err != nil {
		a.log.Warn("Could not register this home for other instances' sandboxes", "err", err)
	}
	if err := a.trading.Start(ctx); err != nil {
		// A broken account is reported but the others keep running.
		a.log.Error("Some trading accounts failed to start", "err", err)
		a.reportStartupProblem(err)
	}
	a.onClose("trading", func(context.Context) error { return a.trading.Close() })
	// accounts.json edited outside alice (or by the Settings pane) applies live.
	a.trading.WatchConfig(ctx, time.Second)

	if err := a.startScheduling(ctx); err != nil {
		return err
	}
	a.startWorkspaceAlerts(ctx)
	if err := a.startResearch(ctx); err != nil {
		return err
	}

	if err := a.mcp.Start(ctx); err != nil {
		return fmt.Errorf("main MCP listener: %w (set \"port\" in %s, 0 picks a free port)", err, a.opts.Store.Path(config.MCPFile))
	}
	a.onClose("main MCP", a.mcp.Shutdown)
	a.addListener(MainListener, a.mcp.URL())

	if a.ask != nil {
		if err := a.ask.Start(ctx); err != nil {
			return fmt.Errorf("Ask MCP listener: %w (set mcpAsk.port in %s)", err, a.opts.Store.Path(config.ConnectorsFile))
		}
		a.onClose("Ask MCP", a.ask.Shutdown)
		a.addListener("Ask", a.ask.URL())
	}
	return nil
}

// envPort reads a port override such as ALICE_MCP_PORT.
func envPort(name string) (int, bool) {
	v := os.Getenv(name)
	if v == "" {
		return 0, false
	}
	p, err := strconv.Atoi(v)
	if err != nil || p < 0 || p > 65535 {
		return 0, false
	}
	return p, true
}
