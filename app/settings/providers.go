package settings

import (
	"fmt"
	"strings"

	"github.com/alice-trading/alice/config"
)

// Profile is the part of an ai-provider.json profile a form edits; the
// fields it leaves out (authMode, maxTokens, command) are kept.
type Profile struct {
	Name      string
	Backend   string
	Model     string
	BaseURL   string
	APIKeyEnv string
	APIKey    string
}

// Providers reads ai-provider.json with its version.
func (s *Service) Providers() (config.AIProvider, config.Version, error) {
	return config.LoadVersioned(s.store, config.AIProviderFile, config.DefaultAIProvider)
}

func (s *Service) editProviders(base config.Version, fn func(*config.AIProvider) error) error {
	_, _, err := config.Edit(s.store, config.AIProviderFile, base, config.DefaultAIProvider, func(p *config.AIProvider) error {
		if p.Profiles == nil {
			p.Profiles = map[string]config.Profile{}
		}
		if p.Channels == nil {
			p.Channels = map[string]string{}
		}
		return fn(p)
	})
	if err == nil {
		s.changed(config.AIProviderFile)
	}
	return err
}

// SaveProfile adds (oldName "") or edits, and possibly renames, a profile.
// A rename follows the active profile and channel overrides; the first
// profile becomes the active one.
func (s *Service) SaveProfile(base config.Version, oldName string, in Profile) error {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return fmt.Errorf("a profile needs a name")
	}
	return s.editProviders(base, func(cfg *config.AIProvider) error {
		p := config.Profile{}
		if oldName != "" {
			old, ok := cfg.Profiles[oldName]
			if !ok {
				return fmt.Errorf("no profile %q (it was removed meanwhile)", oldName)
			}
			p = old
		}
		if name != oldName {
			if _, taken := cfg.Profiles[name]; taken {
				return fmt.Errorf("a profile named %q already exists", name)
			}
		}
		p.Backend, p.Model, p.BaseURL = config.Backend(in.Backend), strings.TrimSpace(in.Model), strings.TrimSpace(in.BaseURL)
		p.APIKeyEnv, p.APIKey = strings.TrimSpace(in.APIKeyEnv), strings.TrimSpace(in.APIKey)
		if oldName != "" && oldName != name {
			delete(cfg.Profiles, oldName)
			if cfg.ActiveProfile == oldName {
				cfg.ActiveProfile = name
			}
			for ch, pr := range cfg.Channels {
				if pr == oldName {
					cfg.Channels[ch] = name
				}
			}
		}
		cfg.Profiles[name] = p
		if cfg.ActiveProfile == "" && len(cfg.Profiles) == 1 {
			cfg.ActiveProfile = name
		}
		return nil
	})
}

// DeleteProfile removes a profile and any channel overrides pointing at it.
func (s *Service) DeleteProfile(base config.Version, name string) error {
	return s.editProviders(base, func(cfg *config.AIProvider) error {
		if _, ok := cfg.Profiles[name]; !ok {
			return fmt.Errorf("no profile %q", name)
		}
		delete(cfg.Profiles, name)
		if cfg.ActiveProfile == name {
			cfg.ActiveProfile = ""
		}
		for ch, p := range cfg.Channels {
			if p == name {
				delete(cfg.Channels, ch)
			}
		}
		return nil
	})
}

// SetActiveProfile makes name the default profile.
func (s *Service) SetActiveProfile(base config.Version, name string) error {
	return s.editProviders(base, func(cfg *config.AIProvider) error { cfg.ActiveProfile = name; return nil })
}

// SetChannelProfile sets or (profile "") removes a channel override.
func (s *Service) SetChannelProfile(base config.Version, channel, profile string) error {
	channel = strings.TrimSpace(channel)
	if channel == "" {
		return fmt.Errorf("a channel override needs a channel (tui, telegram, mcp-ask, heartbeat, cron)")
	}
	return s.editProviders(base, func(cfg *config.AIProvider) error {
		if profile == "" {
			delete(cfg.Channels, channel)
		} else {
			cfg.Channels[channel] = profile
		}
		return nil
	})
}
