package config

import "errors"

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

// CheckAll loads every file once: missing files are created with defaults
// (unless the store is read-only) and every malformed file is reported,
// joined, each naming its file and key. It checks each file on its own;
// app.Validate adds the checks that need the domain packages (broker
// presets), and is what start-up and `alice check` run.
func (s *Store) CheckAll() error {
	checks := []func() error{
		func() error { _, err := s.AIProvider(); return err },
		func() error { _, err := s.MCP(); return err },
		func() error { _, err := s.Connectors(); return err },
		func() error { _, err := s.Webhook(); return err },
		func() error { _, err := s.Accounts(); return err },
		func() error { _, err := s.Snapshot(); return err },
		func() error { _, err := s.MarketData(); return err },
		func() error { _, err := s.Agent(); return err },
		func() error { _, err := s.Workspaces(); return err },
		func() error { _, err := s.Tools(); return err },
		func() error { _, err := s.Compaction(); return err },
		func() error { _, err := s.Heartbeat(); return err },
		func() error { _, err := s.News(); return err },
		func() error { _, err := s.Research(); return err },
		func() error { _, err := s.Attach(); return err },
	}
	var errs []error
	for _, c := range checks {
		if err := c(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
