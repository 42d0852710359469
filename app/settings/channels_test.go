package settings

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

// Channel edits from the Settings page: the first edit adds an entry,
// every write passes the one check with the draft in place (a profile
// missing from ai-provider.json, a label taken, archiving the default
// channel are refused naming the key, and nothing is written).
func TestSaveChannel(t *testing.T) {
	t.Parallel()
	svc, rec, _ := newService(t, map[string]string{
		config.AIProviderFile: `{"activeProfile":"fast","profiles":{"fast":{"backend":"openai","model":"m","apiKeyEnv":"K"},"deep":{"backend":"openai","model":"m2","apiKeyEnv":"K"}}}`,
		config.ChannelsFile:   `{"channels":[{"id":"research","label":"Research"}]}`,
	})
	steps := []struct {
		name      string
		id, label string
		edit      ChannelEdit
		err       string
		field     string
		want      func(t *testing.T, c config.Channels)
	}{
		{"default channel gets an entry on its first edit", "default", "Alice",
			ChannelEdit{Label: "Alice", Profile: "deep", Persona: " Be brief. ", DisabledTools: []string{"placeOrder", " ", "placeOrder", "cancelOrder"}}, "", "",
			func(t *testing.T, c config.Channels) {
				e, ok := c.Find("default")
				require.True(t, ok)
				assert.Equal(t, "deep", e.Profile)
				assert.Equal(t, "Be brief.", e.Persona)
				assert.Equal(t, []string{"cancelOrder", "placeOrder"}, e.DisabledTools, "trimmed, deduplicated, sorted")
			}},
		{"rename and archive", "research", "", ChannelEdit{Label: "Deep research", Archived: true}, "", "",
			func(t *testing.T, c config.Channels) {
				e, _ := c.Find("research")
				assert.Equal(t, "Deep research", e.Label)
				assert.True(t, e.Archived)
				assert.Len(t, c.Channels, 2)
			}},
		{"unknown profile refused by the one check", "research", "", ChannelEdit{Label: "Deep research", Profile: "fsat"}, `did you mean "fast"`, "profile", nil},
		{"label of another channel refused", "research", "", ChannelEdit{Label: "alice"}, "already the label", "label", nil},
		{"default channel cannot be archived", "default", "", ChannelEdit{Label: "Alice", Archived: true}, "cannot be archived", "archived", nil},
		{"empty label refused", "research", "", ChannelEdit{Label: "  "}, "needs a name", "label", nil},
		{"connector channel", "telegram", "Telegram", ChannelEdit{Label: "Telegram", DisabledTools: []string{"placeOrder"}}, "", "",
			func(t *testing.T, c config.Channels) {
				e, ok := c.Find("telegram")
				require.True(t, ok)
				assert.Equal(t, []string{"placeOrder"}, e.DisabledTools)
			}},
		{"bad id", "../x", "", ChannelEdit{Label: "x"}, "not a channel id", "", nil},
	}
	for _, st := range steps {
		before, base, err := svc.Channels()
		require.NoError(t, err, st.name)
		err = svc.SaveChannel(base, st.id, st.label, st.edit)
		after, _, lerr := svc.Channels()
		require.NoError(t, lerr)
		if st.err != "" {
			require.Error(t, err, st.name)
			assert.Contains(t, err.Error(), st.err, st.name)
			assert.Equal(t, st.field, ChannelField(err), st.name)
			assert.Equal(t, before, after, "%s: nothing written", st.name)
			continue
		}
		require.NoError(t, err, st.name)
		st.want(t, after)
	}
	_, _, err := svc.Channels()
	require.NoError(t, err)
	require.ErrorContains(t, svc.SaveChannel("stale", "research", "", ChannelEdit{Label: "R"}), "changed on disk")
	assert.Contains(t, rec.list(), config.ChannelsFile)
	require.NoError(t, svc.Validate(), "what was written passes alice check")
}
