package app

import (
	"context"
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/agent"
	"github.com/alice-trading/alice/core/channel"
	"github.com/alice-trading/alice/core/connector"
	"github.com/alice-trading/alice/core/eventlog"
	"github.com/alice-trading/alice/core/inbox"
	"github.com/alice-trading/alice/core/provider"
	"github.com/alice-trading/alice/core/session"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/marketdata"
	"github.com/alice-trading/alice/trading/snapshot"
	"github.com/alice-trading/alice/trading/uta"
	"github.com/alice-trading/alice/workspace"
)

// The App keeps its parts to itself; surfaces (the TUI adapter, Telegram,
// the CLI, tests) reach the use cases through these methods. Each returns
// an interface naming the whole use case; a surface declares the smaller
// interface it needs where it uses it. The implementations live once, in
// the core or the domain: uta.Manager (trading), workspace.Manager
// (workspaces), settings.Service (settings), schedule.Automation
// (automation), connector.Center (connectors), channel.Service (chat
// channels), agent.Center and session.Store (chat).

// Trading is the trading use case: accounts and their state, the approval
// queue (approve = push the exact commit shown, reject), the kill switch,
// history,
// snapshots, live account configuration and the simulator's controls.
// Implemented by uta.Manager.
type Trading interface {
	Accounts() []uta.Summary
	Account(ctx context.Context, id string) (trading.AccountInfo, error)
	Positions(ctx context.Context, id string) ([]trading.Position, error)
	Orders(ctx context.Context, id string, ids []string) ([]trading.OpenOrder, error)
	Subscribe(ctx context.Context) <-chan trading.Event

	Pending() []uta.PendingApproval
	// Evidence is what a person judges a pending commit by: notional at
	// the current quote, position and cash after, each guard's verdict.
	Evidence(ctx context.Context, accountID, hash string) (uta.Evidence, error)
	Push(ctx context.Context, accountID, hash string) (git.PushResult, error)
	Reject(ctx context.Context, accountID, hash, reason string) (git.Commit, error)
	Log(source string, limit int, symbol string) ([]uta.AccountLogEntry, error)
	OrderHistory(source string, limit int) ([]uta.AccountOrder, error)
	TradeHistory(source string, limit int) ([]uta.AccountTrade, error)

	// The kill switch: freeze staging on every account and cancel resting
	// orders; only a person resumes.
	Halt(ctx context.Context, by, reason string) (uta.HaltReport, error)
	Resume(by string) (uta.HaltState, error)
	Halted() (uta.HaltState, error)

	EquityCurve(id string, since time.Time) ([]snapshot.Point, error)
	Snapshots(id string, since time.Time, limit int) ([]snapshot.Snapshot, error)
	TakeSnapshot(ctx context.Context, id string, trigger snapshot.Trigger) (snapshot.Snapshot, error)

	AddAccount(ctx context.Context, na uta.NewAccount) error
	UpdateAccount(ctx context.Context, id string, base config.Version, fn func(*config.Account) error) error
	RemoveAccount(ctx context.Context, id string) error
	Reconnect(ctx context.Context, id string) error

	IsSimulator(id string) bool
	SimSetPrice(id, symbol, change string) (old, next decimal.Decimal, err error)
	SimMark(id, symbol string) (decimal.Decimal, error)
	SimCash(id string, amount decimal.Decimal) error
	SimForceFill(ctx context.Context, id, symbol string) ([]trading.OpenOrder, error)
	SimAdvance(id string, d time.Duration) (time.Time, error)
}

// Workspaces is the workspace use case: workspaces (create, list, archive,
// remove), their agent sessions (start, resume, stop through the session,
// type into, agent state), files, git and the review diff. Implemented by
// workspace.Manager.
type Workspaces interface {
	Templates() []workspace.Template
	List() []workspace.Workspace
	Get(idOrTag string) (workspace.Workspace, bool)
	Lookup(id string) (core.WorkspaceIdentity, bool)
	Create(ctx context.Context, tag, template string, agents []workspace.Agent) (workspace.Workspace, error)
	Archive(id string, archived bool) error
	RemoveWorkspace(id string, removeDir bool) error
	Subscribe(ctx context.Context) <-chan workspace.Event

	Sessions(wsID string) []*workspace.Session
	Session(id string) (*workspace.Session, bool)
	SessionRecords(wsID string) []workspace.SessionRecord
	StartSession(wsID string, agent workspace.Agent) (*workspace.Session, error)
	StartSessionSize(wsID string, agent workspace.Agent, cols, rows int) (*workspace.Session, error)
	ResumeSession(recordID string) (*workspace.Session, error)
	// SavedOutput is a paused session's saved scrollback as styled lines
	// (ok false when nothing was saved), read without restarting it.
	SavedOutput(recordID string, cols, rows int) ([]string, bool, error)
	WaitReady(ctx context.Context, sessionID string, timeout time.Duration) bool
	Send(sessionID, text string, enter bool) error
	AgentStatus(sessionID string) (workspace.AgentStatus, bool)
	AcknowledgeAgent(sessionID string)
	SetWatched(sessionID string, on bool)

	Files(wsID, rel string) ([]workspace.FileInfo, error)
	DocReader() inbox.DocReader
	GitStatus(wsID string) (workspace.GitStatus, error)
	GitLog(wsID string, n int) ([]workspace.Commit, error)
	Diff(wsID string) (workspace.Diff, error)
	CommitChanges(wsID, message string) (string, error)
	DiscardChanges(wsID string, paths ...string) ([]string, error)
}

// Chat is the conversation use case: a turn on a session through the
// channel's provider, history, compaction, the sessions list and provider
// probes. Implemented by agent.Center, session.Store and provider.Router.
type Chat interface {
	AskWithSession(ctx context.Context, prompt, sessionID string, opts agent.Options) (*agent.Stream, error)
	History(sessionID string, limit int) ([]session.ChatItem, error)
	Transcript(sessionID string, limit int) ([]session.ChatItem, error)
	Compact(ctx context.Context, sessionID string) error
	ProviderLabel(channel string, channelID ...string) string
	Sessions() ([]session.Info, error)
	Summary(id string) (session.Summary, error)
	Summaries(prefix, query string) ([]session.Summary, error)
	SetTitle(id, title string) error
	DeleteSession(id string) error
	Probe(ctx context.Context, profile, channel string) (provider.ProbeResult, error)
}

// Connectors is the connector use case: which connectors run, where the
// user last talked to alice, and notifications (to the last channel, or
// to every human channel) and their log. Implemented by
// connector.Center.
type Connectors interface {
	Channels() []string
	Last() (connector.Interaction, bool)
	Touch(channel, to string)
	Recent(limit int) ([]connector.Notification, error)
	Notify(ctx context.Context, text, urgency, source string) (string, error)
	NotifyHumans(ctx context.Context, text, urgency, source string) (string, error)
}

// Channels is the chat channel use case: named chats, each with its own
// session and configuration (profile, disabled tools, persona); Telegram
// and the Ask connector are channels too. Implemented by channel.Service.
type Channels interface {
	List(archived bool) ([]channel.Info, error)
	Get(id string) (channel.Info, error)
	Lookup(id string) (config.Channel, bool, error)
	Connectors() ([]channel.Info, error)
	Create(label string) (channel.Info, error)
	Rename(id, label string) (channel.Info, error)
	SetArchived(id string, archived bool) (channel.Info, error)
	Update(id string, fn func(*config.Channel) error) (channel.Info, error)
	Browse(query string) ([]channel.Row, error)
}

// Inbox is the inbox use case (agents append through inbox_push; people
// list, read and delete). Implemented by inbox.Store.
type Inbox interface {
	Append(e inbox.Entry) (inbox.Entry, error)
	List(opts inbox.ListOptions) (inbox.Page, error)
	Get(id string) (inbox.Entry, error)
	Delete(id string) error
	Subscribe(ctx context.Context) <-chan inbox.Event
}

// Tools is the tool use case: the same ToolCenter the agent and MCP
// clients call. Implemented by core.ToolCenter.
type Tools interface {
	Call(ctx context.Context, name string, args json.RawMessage) (any, error)
	Get(name string) (core.Tool, bool)
	Inventory() []core.ToolInfo
}

// Activity is the event log as surfaces use it: they record what they
// received and sent, and read what happened.
type Activity interface {
	Append(typ string, payload any) (eventlog.Entry, error)
	Recent() []eventlog.Entry
	Read(opts eventlog.ReadOptions) ([]eventlog.Entry, error)
	Subscribe(ctx context.Context) <-chan eventlog.Entry
}

// Trading returns the trading use case.
func (a *App) Trading() Trading { return a.trading }

// Workspaces returns the workspace use case.
func (a *App) Workspaces() Workspaces { return a.workspaces }

// Chat returns the conversation use case.
func (a *App) Chat() Chat { return chat{a} }

// Connectors returns the connector use case.
func (a *App) Connectors() Connectors { return a.connectors }

// Channels returns the chat channel use case.
func (a *App) Channels() Channels { return a.channels }

// Inbox returns the inbox use case.
func (a *App) Inbox() Inbox { return a.inbox }

// Tools returns the tool use case.
func (a *App) Tools() Tools { return a.tools }

// Activity returns the event log.
func (a *App) Activity() Activity { return a.events }

// Paths are the config, data and log folders the App runs on.
func (a *App) Paths() config.Paths { return a.opts.Paths }

// MarketData opens the configured market data backend (market-data.json;
// the simulated one shares the App's market). Opening is cheap, so each
// caller opens its own.
func (a *App) MarketData() (marketdata.Source, error) {
	cfg, err := a.opts.Store.MarketData()
	if err != nil {
		return nil, err
	}
	return marketdata.Open(cfg, a.market, marketdata.Options{Getenv: a.creds.getenv})
}

// MCPURL is the main MCP listener's URL (…/mcp), "" before Start.
func (a *App) MCPURL() string { return a.mcp.URL() }

// WorkspaceMCPURL is a workspace's /mcp/{wsId} URL.
func (a *App) WorkspaceMCPURL(wsID string) string { return a.mcp.WorkspaceURL(wsID) }

// chat joins the agent, session store and router into Chat.
type chat struct{ a *App }

func (c chat) AskWithSession(ctx context.Context, prompt, sessionID string, opts agent.Options) (*agent.Stream, error) {
	return c.a.agent.AskWithSession(ctx, prompt, sessionID, opts)
}
func (c chat) History(sessionID string, limit int) ([]session.ChatItem, error) {
	return c.a.agent.History(sessionID, limit)
}
func (c chat) Compact(ctx context.Context, sessionID string) error {
	return c.a.agent.Compact(ctx, sessionID)
}
func (c chat) ProviderLabel(channel string, channelID ...string) string {
	return c.a.agent.ProviderLabel(channel, channelID...)
}
func (c chat) Transcript(sessionID string, limit int) ([]session.ChatItem, error) {
	return c.a.agent.Transcript(sessionID, limit)
}
func (c chat) Sessions() ([]session.Info, error)          { return c.a.sessions.List() }
func (c chat) Summary(id string) (session.Summary, error) { return c.a.sessions.Summary(id) }
func (c chat) Summaries(prefix, query string) ([]session.Summary, error) {
	return c.a.sessions.Summaries(prefix, query)
}
func (c chat) SetTitle(id, title string) error { return c.a.sessions.SetTitle(id, title) }
func (c chat) DeleteSession(id string) error   { return c.a.sessions.Delete(id) }
func (c chat) Probe(ctx context.Context, profile, channel string) (provider.ProbeResult, error) {
	return c.a.router.Probe(ctx, profile, channel)
}

// AskURL is the Ask connector's URL, "" when it is off or not started.
func (a *App) AskURL() string {
	if a.ask == nil {
		return ""
	}
	return a.ask.URL()
}
