package config

import (
	"errors"
	"fmt"
	"strings"
)

// Each file has a typed loader. They read the file on every call, so code
// that must honour edits without a restart simply calls them again.

func (s *Store) AIProvider() (AIProvider, error) { return Load(s, AIProviderFile, DefaultAIProvider) }
func (s *Store) MCP() (MCP, error)               { return Load(s, MCPFile, DefaultMCP) }
func (s *Store) Connectors() (Connectors, error) { return Load(s, ConnectorsFile, DefaultConnectors) }
func (s *Store) Webhook() (Webhook, error)       { return Load(s, WebhookFile, DefaultWebhook) }
func (s *Store) Accounts() (Accounts, error)     { return Load(s, AccountsFile, DefaultAccounts) }
func (s *Store) Snapshot() (Snapshot, error)     { return Load(s, SnapshotFile, DefaultSnapshot) }
func (s *Store) MarketData() (MarketData, error) { return Load(s, MarketDataFile, DefaultMarketData) }
func (s *Store) Agent() (Agent, error)           { return Load(s, AgentFile, DefaultAgent) }
func (s *Store) Tools() (Tools, error)           { return Load(s, ToolsFile, DefaultTools) }
func (s *Store) Compaction() (Compaction, error) { return Load(s, CompactionFile, DefaultCompaction) }
func (s *Store) Heartbeat() (Heartbeat, error)   { return Load(s, HeartbeatFile, DefaultHeartbeat) }
func (s *Store) News() (News, error)             { return Load(s, NewsFile, DefaultNews) }
func (s *Store) Research() (Research, error)     { return Load(s, ResearchFile, DefaultResearch) }
func (s *Store) Channels() (Channels, error)     { return Load(s, ChannelsFile, DefaultChannels) }

// fileLoader is one config file's typed loader.
type fileLoader struct {
	name string
	load func() error
}

// loaders lists every config file with its typed loader, in the order
// CheckAll reports them.
func (s *Store) loaders() []fileLoader {
	return []fileLoader{
		{AIProviderFile, func() error { _, err := s.AIProvider(); return err }},
		{MCPFile, func() error { _, err := s.MCP(); return err }},
		{ConnectorsFile, func() error { _, err := s.Connectors(); return err }},
		{WebhookFile, func() error { _, err := s.Webhook(); return err }},
		{AccountsFile, func() error { _, err := s.Accounts(); return err }},
		{SnapshotFile, func() error { _, err := s.Snapshot(); return err }},
		{MarketDataFile, func() error { _, err := s.MarketData(); return err }},
		{AgentFile, func() error { _, err := s.Agent(); return err }},
		{WorkspacesFile, func() error { _, err := s.Workspaces(); return err }},
		{ToolsFile, func() error { _, err := s.Tools(); return err }},
		{CompactionFile, func() error { _, err := s.Compaction(); return err }},
		{HeartbeatFile, func() error { _, err := s.Heartbeat(); return err }},
		{NewsFile, func() error { _, err := s.News(); return err }},
		{ResearchFile, func() error { _, err := s.Research(); return err }},
		{ChannelsFile, func() error { _, err := s.Channels(); return err }},
		{AttachFile, func() error { _, err := s.Attach(); return err }},
	}
}

// Check loads one file by name as CheckAll does (a missing file is
// created with its defaults unless the store is read-only). An unknown
// name is an error naming the known ones.
func (s *Store) Check(name string) error {
	for _, l := range s.loaders() {
		if l.name == name {
			return l.load()
		}
	}
	return fmt.Errorf("unknown config file %q (one of: %s)", name, strings.Join(Files(), ", "))
}

// CheckAll loads every file once: missing files are created with defaults
// (unless the store is read-only) and every malformed file is reported,
// joined, each naming its file and key. It checks each file on its own;
// app.Validate adds the checks that need the domain packages (broker
// presets), and is what start-up and `alice check` run.
func (s *Store) CheckAll() error {
	var errs []error
	for _, l := range s.loaders() {
		if err := l.load(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		// Cross-file: channel and workspace overrides name real profiles.
		if err := CheckChannelProfiles(s); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
