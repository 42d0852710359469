package settings_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/core/schedule"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/settings"
	"github.com/stretchr/testify/require"
)

// fakeSettings is an in-memory SettingsCore on top of fakeCore. Its
// version counter lets tests check that the pane passes back the version
// it showed (and that a stale one is refused).
type fakeSettings struct {
	*tuitest.FakeCore
	smu      sync.Mutex
	version  int
	active   string
	profiles map[string]settings.ProfileSetting
	channels map[string]string
	accounts []settings.AccountSetting
	jobs     []settings.CronJobSetting
	hb       settings.HeartbeatSetting
	conn     settings.ConnectorSetting
	tested   []string
	ran      []string
	runErr   error
	feeds    []settings.FeedSetting
	toolList []settings.ToolSetting
	chans    []settings.ChannelSetting
	created  []settings.ChannelSetting
	saved    []settings.ChannelSetting
}

func newFakeSettings() *fakeSettings {
	return &fakeSettings{FakeCore: tuitest.NewFakeCore(), profiles: map[string]settings.ProfileSetting{}, channels: map[string]string{},
		accounts: []settings.AccountSetting{{ID: "sim-paper", Label: "Simulated paper", Preset: "simulator", Enabled: true, Health: "healthy", GuardsJSON: "[]"}},
		hb:       settings.HeartbeatSetting{Every: "30m", Prompt: "look around"},
		conn:     settings.ConnectorSetting{AskEnabled: true, AskPort: 3003},
		toolList: []settings.ToolSetting{{Name: "getQuote", Group: "market", Enabled: true}, {Name: "placeOrder", Group: "trading", Enabled: true, Description: "Stage an order.\nArguments: source, aliceId."}}}
}

var errStale = errors.New("config changed on disk since it was loaded; reload and edit again")

func (f *fakeSettings) ver() string { return fmt.Sprint(f.version) }

// edit applies fn when base matches, like config.Edit.
func (f *fakeSettings) edit(base string, fn func() error) error {
	f.smu.Lock()
	defer f.smu.Unlock()
	if base != "" && base != f.ver() {
		return errStale
	}
	if err := fn(); err != nil {
		return err
	}
	f.version++
	return nil
}

func (f *fakeSettings) AIProviders() (settings.ProviderSettings, error) {
	f.smu.Lock()
	defer f.smu.Unlock()
	out := settings.ProviderSettings{Version: f.ver(), Active: f.active, Channels: map[string]string{}, File: "/cfg/ai-provider.json"}
	for _, p := range f.profiles {
		out.Profiles = append(out.Profiles, p)
	}
	sort.Slice(out.Profiles, func(i, j int) bool { return out.Profiles[i].Name < out.Profiles[j].Name })
	for k, v := range f.channels {
		out.Channels[k] = v
	}
	return out, nil
}
func (f *fakeSettings) SaveProfile(base, old string, p settings.ProfileSetting) error {
	return f.edit(base, func() error {
		if p.Name == "" {
			return errors.New("a profile needs a name")
		}
		delete(f.profiles, old)
		f.profiles[p.Name] = p
		if f.active == "" {
			f.active = p.Name
		}
		return nil
	})
}
func (f *fakeSettings) DeleteProfile(base, name string) error {
	return f.edit(base, func() error { delete(f.profiles, name); return nil })
}
func (f *fakeSettings) SetActiveProfile(base, name string) error {
	return f.edit(base, func() error { f.active = name; return nil })
}
func (f *fakeSettings) SetChannelProfile(base, ch, p string) error {
	return f.edit(base, func() error { f.channels[ch] = p; return nil })
}
func (f *fakeSettings) TestProfile(ctx context.Context, name string) (settings.ProbeReport, error) {
	f.smu.Lock()
	f.tested = append(f.tested, name)
	f.smu.Unlock()
	if name == "broken" {
		return settings.ProbeReport{}, errors.New("401 invalid api key")
	}
	return settings.ProbeReport{Label: name + " (openai m)", Latency: 42 * time.Millisecond, Reply: "pong"}, nil
}
func (f *fakeSettings) AccountPresets() []settings.AccountPreset {
	return []settings.AccountPreset{{ID: "simulator", Name: "Simulator (paper)", Description: "offline",
		Fields: []settings.PresetFieldSetting{{Key: "cash", Label: "Starting cash", Kind: "decimal", Default: "100000"}}}}
}
func (f *fakeSettings) AccountSettings() ([]settings.AccountSetting, error) {
	f.smu.Lock()
	defer f.smu.Unlock()
	return append([]settings.AccountSetting(nil), f.accounts...), nil
}
func (f *fakeSettings) AddAccount(ctx context.Context, a settings.NewAccountInput) error {
	return f.edit("", func() error {
		if a.Values["cash"] == "lots" {
			return errors.New(`key "[1].presetConfig.cash": must be a decimal amount`)
		}
		f.accounts = append(f.accounts, settings.AccountSetting{ID: a.ID, Label: a.Label, Preset: a.PresetID, Enabled: true, Health: "healthy", GuardsJSON: a.Values["cash"]})
		return nil
	})
}
func (f *fakeSettings) findAccount(id string) *settings.AccountSetting {
	for i := range f.accounts {
		if f.accounts[i].ID == id {
			return &f.accounts[i]
		}
	}
	return nil
}
func (f *fakeSettings) SetAccountEnabled(ctx context.Context, id string, on bool) error {
	return f.edit("", func() error { f.findAccount(id).Enabled = on; return nil })
}
func (f *fakeSettings) SetAccountAutoApprove(ctx context.Context, id string, on bool) error {
	return f.edit("", func() error { f.findAccount(id).AutoApprove = on; return nil })
}
func (f *fakeSettings) SetAccountGuards(ctx context.Context, id, g string) error {
	return f.edit("", func() error { f.findAccount(id).GuardsJSON = g; return nil })
}
func (f *fakeSettings) RemoveAccount(ctx context.Context, id string) error {
	return f.edit("", func() error {
		for i := range f.accounts {
			if f.accounts[i].ID == id {
				f.accounts = append(f.accounts[:i], f.accounts[i+1:]...)
				return nil
			}
		}
		return errors.New("no account")
	})
}
func (f *fakeSettings) ReconnectAccount(ctx context.Context, id string) error {
	return f.edit("", func() error { f.findAccount(id).Health = "healthy"; f.findAccount(id).Error = ""; return nil })
}
func (f *fakeSettings) CronJobs() ([]settings.CronJobSetting, error) {
	f.smu.Lock()
	defer f.smu.Unlock()
	return append([]settings.CronJobSetting(nil), f.jobs...), nil
}
func (f *fakeSettings) SaveCronJob(j settings.CronJobInput) error {
	return f.edit("", func() error {
		if _, err := f.PreviewSchedule(j.Schedule, 1); err != nil {
			return err
		}
		if j.Target != "" {
			if _, err := schedule.ParseTargetText(j.Target); err != nil {
				return err
			}
		}
		f.jobs = append(f.jobs, settings.CronJobSetting{ID: fmt.Sprint("j", len(f.jobs)), Name: j.Name, Schedule: j.Schedule, Prompt: j.Prompt, Enabled: j.Enabled})
		return nil
	})
}
func (f *fakeSettings) SetCronEnabled(id string, on bool) error {
	return f.edit("", func() error { f.jobs[0].Enabled = on; return nil })
}
func (f *fakeSettings) RunCronNow(ctx context.Context, id string) (string, error) {
	f.smu.Lock()
	f.ran = append(f.ran, id)
	err := f.runErr
	f.smu.Unlock()
	if err != nil {
		return "", err
	}
	return "done", nil
}
func (f *fakeSettings) DeleteCronJob(id string) error {
	return f.edit("", func() error { f.jobs = nil; return nil })
}
func (f *fakeSettings) PreviewSchedule(s string, n int) ([]time.Time, error) {
	step := time.Hour
	switch s {
	case "every 1h":
	case "0 9 * * 1-5": // t0 is a Friday 14:30: weekdays at 09:00
		out := []time.Time{}
		for d := tuitest.T0.Truncate(24 * time.Hour).Add(9 * time.Hour); len(out) < n; d = d.Add(24 * time.Hour) {
			if d.After(tuitest.T0) && d.Weekday() != time.Saturday && d.Weekday() != time.Sunday {
				out = append(out, d)
			}
		}
		return out, nil
	default:
		return nil, fmt.Errorf("schedule %q: want 5 fields", s)
	}
	var out []time.Time
	for i := 1; i <= n; i++ {
		out = append(out, tuitest.T0.Add(time.Duration(i)*step))
	}
	return out, nil
}
func (f *fakeSettings) Heartbeat() (settings.HeartbeatSetting, error) {
	f.smu.Lock()
	defer f.smu.Unlock()
	h := f.hb
	h.Version = f.ver()
	return h, nil
}
func (f *fakeSettings) SaveHeartbeat(base string, h settings.HeartbeatSetting) error {
	return f.edit(base, func() error { f.hb = h; return nil })
}
func (f *fakeSettings) Connectors() (settings.ConnectorSetting, error) {
	f.smu.Lock()
	defer f.smu.Unlock()
	c := f.conn
	c.Version = f.ver()
	return c, nil
}
func (f *fakeSettings) SaveConnectors(base string, c settings.ConnectorSetting) error {
	return f.edit(base, func() error {
		if c.AskPort < 0 || c.AskPort > 65535 {
			return fmt.Errorf(`config connectors.json: key "mcpAsk.port": must be 0..65535, got %d`, c.AskPort)
		}
		f.conn = c
		return nil
	})
}
func (f *fakeSettings) NewMCPToken(l string) (string, error) {
	return "tok-" + l, f.edit("", func() error { f.conn.MainTokenSet = true; return nil })
}
func (f *fakeSettings) RevokeMCPToken(l string) error {
	return f.edit("", func() error { f.conn.MainTokenSet = false; return nil })
}
func (f *fakeSettings) CreateWebhookToken() (settings.WebhookTokenSetting, error) {
	t := settings.WebhookTokenSetting{ID: "wh-1", CreatedAt: tuitest.T0, Token: "secret-wh", Curl: "curl -X POST http://x/api/events/ingest -H 'Authorization: Bearer secret-wh'"}
	return t, f.edit("", func() error {
		f.conn.WebhookTokens = append(f.conn.WebhookTokens, settings.WebhookTokenSetting{ID: t.ID, CreatedAt: tuitest.T0})
		return nil
	})
}
func (f *fakeSettings) RevokeWebhookToken(id string) error {
	return f.edit("", func() error { f.conn.WebhookTokens = nil; return nil })
}
func (f *fakeSettings) TelegramTest(ctx context.Context) error {
	return errors.New("telegram sendMessage: 401 Unauthorized")
}

func newSettingsHarness(t *testing.T) (*tuitest.Harness, *fakeSettings) {
	fs := newFakeSettings()
	hs := tuitest.NewHarnessOver(t, fs, fs.FakeCore, 120, 36)
	hs.Run(hs.M.LoadAll())
	hs.Send(tea.KeyPressMsg{Code: '8', Mod: tea.ModAlt})
	require.Equal(t, hs.M.PaneIndex(hs.M.Settings), hs.M.Focus)
	return hs, fs
}

var _ settings.SettingsCore = (*fakeSettings)(nil)

func (f *fakeSettings) NewsFeeds() (settings.NewsSetting, error) {
	f.smu.Lock()
	defer f.smu.Unlock()
	return settings.NewsSetting{Version: f.ver(), Enabled: true, Feeds: append([]settings.FeedSetting(nil), f.feeds...)}, nil
}
func (f *fakeSettings) AddFeed(base, name, url string) error {
	return f.edit(base, func() error {
		f.feeds = append(f.feeds, settings.FeedSetting{Name: name, URL: url, Enabled: true})
		return nil
	})
}
func (f *fakeSettings) RemoveFeed(base, url string) error {
	return f.edit(base, func() error { f.feeds = nil; return nil })
}
func (f *fakeSettings) SetFeedEnabled(base, url string, on bool) error {
	return f.edit(base, func() error { f.feeds[0].Enabled = on; return nil })
}
func (f *fakeSettings) TestFeed(ctx context.Context, url string) (string, error) {
	if !strings.HasPrefix(url, "https://ok") {
		return "", errors.New("HTTP 404")
	}
	return `"OK feed": 3 items`, nil
}
func (f *fakeSettings) ToolList() ([]settings.ToolSetting, error) {
	f.smu.Lock()
	defer f.smu.Unlock()
	return append([]settings.ToolSetting(nil), f.toolList...), nil
}
func (f *fakeSettings) SetToolEnabled(name string, on bool) error {
	return f.edit("", func() error {
		for i := range f.toolList {
			if f.toolList[i].Name == name {
				f.toolList[i].Enabled = on
			}
		}
		return nil
	})
}
func (f *fakeSettings) ChannelSettings() (settings.ChannelSettings, error) {
	f.smu.Lock()
	defer f.smu.Unlock()
	return settings.ChannelSettings{Version: f.ver(), File: "/cfg/channels.json", Channels: append([]settings.ChannelSetting(nil), f.chans...)}, nil
}

// channelFieldErr is an error about one form field, as tui/live returns.
type channelFieldErr struct{ field, msg string }

func (e channelFieldErr) Error() string { return e.msg }
func (e channelFieldErr) Field() string { return e.field }

// AddChannel refuses an empty or taken name (any case) as the channel
// service does and derives the id from the name.
func (f *fakeSettings) AddChannel(label, profile string) (string, error) {
	var id string
	err := f.edit("", func() error {
		label = strings.TrimSpace(label)
		if label == "" {
			return channelFieldErr{"label", "a channel needs a name"}
		}
		for _, o := range f.chans {
			if strings.EqualFold(o.Label, label) {
				return channelFieldErr{"label", fmt.Sprintf("a channel named %q already exists", o.Label)}
			}
		}
		id = strings.Trim(regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(label), "-"), "-")
		f.chans = append(f.chans, settings.ChannelSetting{ID: id, Label: label, Profile: profile})
		f.created = append(f.created, f.chans[len(f.chans)-1])
		return nil
	})
	return id, err
}

func (f *fakeSettings) SaveChannel(base string, c settings.ChannelSetting) error {
	return f.edit(base, func() error {
		for _, o := range f.chans {
			if o.ID != c.ID && strings.EqualFold(o.Label, c.Label) {
				return channelFieldErr{"label", fmt.Sprintf("%q is already the label of channel %q", c.Label, o.ID)}
			}
		}
		for i := range f.chans {
			if f.chans[i].ID == c.ID {
				f.chans[i] = c
			}
		}
		f.saved = append(f.saved, c)
		return nil
	})
}
func (f *fakeSettings) PersonaFile(create bool) (string, string, error) {
	return "/data/brain/persona.md", "You are Alice.\nBe brief.", nil
}
