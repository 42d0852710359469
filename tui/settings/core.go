package settings

import (
	"context"
	"time"
)

// SettingsCore is what the Settings pane needs from the core. It is kept
// out of Core so the other panes (and their fakes) do not grow; the pane
// obtains it by type assertion on the root Core and shows a notice when
// the core does not offer it. tui/live implements it over config.Edit
// (atomic, merge-preserving, conflict-refusing writes validated like
// `alice check`) and the live managers (accounts apply without a restart).
//
// Versions: every view carries the Version of the file it was read from;
// a save passes it back, and a file changed on disk meanwhile is refused
// with an error that says so (the pane then reloads). All methods run in
// tea.Cmds and must be safe for concurrent use.
type SettingsCore interface {
	// AI provider (ai-provider.json; the router re-reads it per message).
	AIProviders() (ProviderSettings, error)
	SaveProfile(base, oldName string, p ProfileSetting) error // add (oldName "") or edit/rename
	DeleteProfile(base, name string) error
	SetActiveProfile(base, name string) error
	SetChannelProfile(base, channel, profile string) error // profile "" removes the override
	TestProfile(ctx context.Context, name string) (ProbeReport, error)

	// Accounts (accounts.json; applied live by the AccountManager).
	AccountPresets() []AccountPreset
	AccountSettings() ([]AccountSetting, error)
	AddAccount(ctx context.Context, a NewAccountInput) error
	SetAccountEnabled(ctx context.Context, id string, on bool) error
	SetAccountAutoApprove(ctx context.Context, id string, on bool) error
	SetAccountGuards(ctx context.Context, id, guardsJSON string) error
	// GuardTypes describes each guard type's options for generated forms.
	GuardTypes() []GuardType
	// AddAccountGuard appends a guard from form values by option key; a
	// value the guard refuses is an error with a Field() string method
	// naming the option, so the form shows it next to that field.
	AddAccountGuard(ctx context.Context, id, typ string, values map[string]string) error
	// RemoveAccountGuard removes guard index (0-based) if it still has typ.
	RemoveAccountGuard(ctx context.Context, id string, index int, typ string) error
	RemoveAccount(ctx context.Context, id string) error
	ReconnectAccount(ctx context.Context, id string) error

	// Automation: cron jobs (data/cron/jobs.json) and heartbeat.json.
	CronJobs() ([]CronJobSetting, error)
	SaveCronJob(j CronJobInput) error // ID "" adds
	SetCronEnabled(id string, on bool) error
	RunCronNow(ctx context.Context, id string) (string, error)
	DeleteCronJob(id string) error
	PreviewSchedule(schedule string, n int) ([]time.Time, error)
	Heartbeat() (HeartbeatSetting, error)
	SaveHeartbeat(base string, h HeartbeatSetting) error

	// Connectors (connectors.json, mcp.json, webhook.json).
	Connectors() (ConnectorSetting, error)
	SaveConnectors(base string, c ConnectorSetting) error
	// NewMCPToken generates and stores a bearer token for "main" (mcp.json)
	// or "ask" (connectors.json) and returns it: shown once.
	NewMCPToken(listener string) (string, error)
	RevokeMCPToken(listener string) error
	CreateWebhookToken() (WebhookTokenSetting, error) // Token and Curl filled: shown once
	RevokeWebhookToken(id string) error
	TelegramTest(ctx context.Context) error

	// News feeds (news.json; the collector re-reads it each cycle).
	NewsFeeds() (NewsSetting, error)
	AddFeed(base, name, url string) error
	RemoveFeed(base, url string) error
	SetFeedEnabled(base, url string, on bool) error
	TestFeed(ctx context.Context, url string) (string, error)

	// Tools (tools.json "disabled"; read on every call).
	ToolList() ([]ToolSetting, error)
	SetToolEnabled(name string, on bool) error

	// Persona: the file the agent's system prompt is read from and the
	// text in use (the built-in persona while the file is missing). create
	// writes the built-in persona there first when missing, for editing;
	// merely showing the page must not pin the built-in text to disk.
	PersonaFile(create bool) (path, text string, err error)

	// Channels (channels.json): the chat channels (archived ones too),
	// then Telegram and Ask. SaveChannel writes one channel's settings
	// through the settings service (the one check with the draft in
	// place); an error about one field has a Field() string method naming
	// it ("label", "profile", "archived").
	ChannelSettings() (ChannelSettings, error)
	SaveChannel(base string, c ChannelSetting) error
	// AddChannel creates a chat channel through the channel service (as
	// the chat's /new does) with profile ("" = the active profile) and
	// returns its id; a refused name or profile names its field (Field())
	// and writes nothing.
	AddChannel(label, profile string) (id string, err error)
}

// ChannelSettings is channels.json as the Channels page shows it.
type ChannelSettings struct {
	Version  string
	File     string
	Channels []ChannelSetting
}

// ChannelSetting is one channel. Connector is set for Telegram and Ask
// (one session per chat or caller; they cannot be archived).
type ChannelSetting struct {
	ID, Label     string
	Profile       string // "" = the active profile
	Persona       string
	DisabledTools []string
	Archived      bool
	Connector     bool
}

// NewsSetting is news.json as the pane shows it.
type NewsSetting struct {
	Version string
	Enabled bool
	Feeds   []FeedSetting
}

// FeedSetting is one RSS/Atom feed.
type FeedSetting struct {
	Name, URL string
	Enabled   bool
}

// ToolSetting is one tool with its group and whether it is enabled.
type ToolSetting struct {
	Name, Group, Description string
	Enabled                  bool
}

// ProviderSettings is ai-provider.json as the pane shows it.
type ProviderSettings struct {
	Version  string
	Active   string
	Profiles []ProfileSetting // sorted by name
	Channels map[string]string
	File     string
}

// ProfileSetting is one profile. Exactly one of APIKeyEnv / APIKey is
// normally set; a stored APIKey is shown masked with a warning.
type ProfileSetting struct {
	Name      string
	Backend   string
	Model     string
	BaseURL   string
	APIKeyEnv string
	APIKey    string
}

// ProbeReport is a provider test's outcome.
type ProbeReport struct {
	Label   string
	Latency time.Duration
	Reply   string
}

// AccountPreset describes a broker preset and its presetConfig fields.
type AccountPreset struct {
	ID, Name, Description string
	Fields                []PresetFieldSetting
}

// PresetFieldSetting is one presetConfig field of a preset.
type PresetFieldSetting struct {
	Key, Label, Kind, Default, Help string
	Required                        bool
	Options                         []string // Kind "choice"
}

// AccountSetting is one accounts.json entry with its live health.
type AccountSetting struct {
	ID, Label, Preset string
	Enabled           bool
	AutoApprove       bool
	Health            string
	Error             string
	GuardsJSON        string
}

// GuardType is one guard type and its option fields.
type GuardType struct {
	Type, Label, Help string
	Fields            []GuardField
}

// GuardField is one guard option: Unit is USD, %, ms or symbols; Max is
// the inclusive upper bound the guard enforces ("" = none; every number
// must be > 0); List fields take comma-separated values.
type GuardField struct {
	Key, Label, Unit, Default, Max, Help string
	Required, List                       bool
}

// NewAccountInput is the add-account form.
type NewAccountInput struct {
	ID, Label, PresetID string
	Values              map[string]string
}

// CronJobSetting is one cron job row.
type CronJobSetting struct {
	ID, Name, Schedule, Prompt string
	// Target is where the job runs, as typed ("alice", "oneshot shell",
	// "session claude in desk").
	Target        string
	Enabled       bool
	Next, LastRun time.Time
	LastStatus    string
}

// CronJobInput adds or edits a job. Schedule is "every 30m", an RFC 3339
// time for a one-shot, or a 5-field cron expression.
type CronJobInput struct {
	ID, Name, Schedule, Prompt string
	Target                     string // "" or "alice": Alice herself
	Enabled                    bool
}

// HeartbeatSetting is heartbeat.json.
type HeartbeatSetting struct {
	Version  string
	Enabled  bool
	Every    string
	Prompt   string
	Start    string // "" = always active
	End      string
	Timezone string
}

// ConnectorSetting is connectors.json plus the token state of both MCP
// listeners (tokens themselves are never shown again after creation).
type ConnectorSetting struct {
	Version           string
	AskEnabled        bool
	AskPort           int
	TelegramEnabled   bool
	TelegramTokenEnv  string
	TelegramHasToken  bool // a literal botToken is stored in the file
	TelegramChatIDs   string
	MainTokenSet      bool
	AskTokenSet       bool
	WebhookTokens     []WebhookTokenSetting
	MainURL, AskURL   string
	RestartForListen  bool // Ask on/off or port changes need a restart of alice
	ConnectorsFile    string
	TelegramRunning   bool
	TelegramBotStatus string
}

// WebhookTokenSetting is one webhook token; Token and Curl are only set
// right after creation.
type WebhookTokenSetting struct {
	ID        string
	CreatedAt time.Time
	Token     string
	Curl      string
}
