package live

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/tui/settings"
	"github.com/stretchr/testify/require"
)

// TestSettingsRefusesAConflictingEditAndKeepsUnknownKeys: the pane's
// write goes through config.Edit over the real files.
func TestSettingsRefusesAConflictingEditAndKeepsUnknownKeys(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	store := config.NewStore(a.Paths().Config)
	require.NoError(t, c.SaveProfile("", "", settings.ProfileSetting{Name: "one", Backend: "openai", BaseURL: "http://127.0.0.1:1/v1"}))
	shown, err := c.AIProviders()
	require.NoError(t, err)
	require.Equal(t, "one", shown.Active, "the first profile becomes active")

	// The user edits the file by hand while the pane shows it: a key the
	// typed struct knows but the form does not show (maxTokens).
	path := store.Path(config.AIProviderFile)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	edited := strings.Replace(string(raw), `"backend": "openai"`, `"backend": "openai", "maxTokens": 777`, 1)
	require.NoError(t, os.WriteFile(path, []byte(edited), 0o600))

	err = c.SaveProfile(shown.Version, "one", settings.ProfileSetting{Name: "one", Backend: "openai", Model: "m2", BaseURL: "http://127.0.0.1:1/v1"})
	require.True(t, errors.Is(err, config.ErrConflict), "%v", err)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, edited, string(after), "a refused edit writes nothing")

	// Reloaded, the same edit succeeds and keeps maxTokens.
	fresh, err := c.AIProviders()
	require.NoError(t, err)
	require.NoError(t, c.SaveProfile(fresh.Version, "one", settings.ProfileSetting{Name: "one", Backend: "openai", Model: "m2", BaseURL: "http://127.0.0.1:1/v1"}))
	cfg, err := store.AIProvider()
	require.NoError(t, err)
	require.Equal(t, 777, cfg.Profiles["one"].MaxTokens)
	require.Equal(t, "m2", cfg.Profiles["one"].Model)

	// A probe of an unreachable profile reports the exact error.
	_, err = c.TestProfile(context.Background(), "one")
	require.Error(t, err)
	require.Contains(t, err.Error(), "connect")
}

func TestPersonaIsWrittenOnlyForEditing(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	path, text, err := c.PersonaFile(false)
	require.NoError(t, err)
	require.NotEmpty(t, text)
	_, err = os.Stat(path)
	require.True(t, errors.Is(err, os.ErrNotExist), "showing the page writes nothing")
	_, text2, err := c.PersonaFile(true)
	require.NoError(t, err)
	require.Equal(t, text, text2)
	_, err = os.Stat(path)
	require.NoError(t, err, "editing creates the file with the text in use")
}

// TestCronFormTargetsAndMarketSchedules: the Settings automation form's
// "Runs in" and market schedule text reach the cron engine and back.
func TestCronFormTargetsAndMarketSchedules(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	require.NoError(t, c.SaveCronJob(settings.CronJobInput{Name: "pre-close", Schedule: "15m before close of sim-paper", Prompt: "df -h", Target: "oneshot shell", Enabled: true}))
	jobs, err := c.CronJobs()
	require.NoError(t, err)
	require.Len(t, jobs, 1)
	require.Equal(t, "15m before close of sim-paper", jobs[0].Schedule)
	require.Equal(t, "oneshot shell", jobs[0].Target)
	require.False(t, jobs[0].Next.IsZero(), "armed from the sim account's calendar")
	times, err := c.PreviewSchedule("15m before close of sim-paper", 3)
	require.NoError(t, err)
	require.Len(t, times, 3)

	job := settings.CronJobInput{ID: jobs[0].ID, Name: "pre-close", Schedule: "15m before close of sim-paper", Prompt: "check", Target: "alice", Enabled: true}
	require.NoError(t, c.SaveCronJob(job))
	jobs, _ = c.CronJobs()
	require.Equal(t, "alice", jobs[0].Target, "moved back into Alice")
	job.Target = "session claude"
	require.ErrorContains(t, c.SaveCronJob(job), "workspace is required")
	require.ErrorContains(t, c.SaveCronJob(settings.CronJobInput{Name: "x", Schedule: "5m after open of btc-perp", Prompt: "x"}), "btc-perp")
}
