package app_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/agent"
	"github.com/alice-trading/alice/core/channel"
	"github.com/alice-trading/alice/scripts/mockllm/script"
)

// chat sends one message on a chat channel the way the TUI does and
// returns the reply and the tools called.
func chat(t *testing.T, a *app.App, channelID, text string) (agent.Result, error) {
	t.Helper()
	s, err := a.Chat().AskWithSession(context.Background(), text, channel.SessionOf(channelID),
		agent.Options{Channel: "tui", ChannelID: channelID})
	require.NoError(t, err)
	return s.Wait()
}

// Channels end to end with the scripted model (scripts/mockllm): a channel
// with placeOrder disabled refuses it while the default channel still
// trades; a channel on another profile answers through it; the Ask
// connector is a channel with the same configuration shape.
func TestChannelsEndToEnd(t *testing.T) {
	t.Parallel()
	llm := httptest.NewServer(script.Handler())
	t.Cleanup(llm.Close)
	a := apptest.StartWithAsk(t, func(askPort int) map[string]string {
		return map[string]string{
			config.AIProviderFile: `{"activeProfile":"alpha","profiles":{
		  "alpha":{"backend":"openai","model":"alpha","baseUrl":"` + llm.URL + `/v1"},
		  "beta":{"backend":"openai","model":"beta","baseUrl":"` + llm.URL + `/v1"}}}`,
			config.ChannelsFile: `{"channels":[
		  {"id":"cautious","label":"Cautious","disabledTools":["placeOrder"]},
		  {"id":"mcp-ask","label":"Ask connector","disabledTools":["placeOrder"]}]}`,
			config.ConnectorsFile: fmt.Sprintf(`{"mcpAsk":{"enabled":true,"port":%d}}`, askPort),
		}
	})

	// The cautious channel: the model tries placeOrder, the call is
	// refused and nothing is staged or waiting.
	res, err := chat(t, a, "cautious", "buy 2 AAPL")
	require.NoError(t, err)
	require.Contains(t, res.Text, "tool placeOrder is disabled for this channel")
	require.Empty(t, a.Trading().Pending())

	// The default channel still trades: staged, committed, waiting for a person.
	res, err = chat(t, a, config.DefaultChannel, "buy 2 AAPL")
	require.NoError(t, err)
	require.Contains(t, res.Text, "Approve it in the Portfolio pane")
	require.Len(t, a.Trading().Pending(), 1)
	require.Contains(t, a.Trading().Pending()[0].Operations[0].Describe(), "BUY 2 AAPL")

	// A channel created at run time, then moved to another profile: the
	// next message goes through it, the default channel is unchanged.
	beta, err := a.Channels().Create("Second opinion")
	require.NoError(t, err)
	res, err = chat(t, a, beta.ID, "which model are you?")
	require.NoError(t, err)
	require.Equal(t, "This is model alpha.", res.Text)
	_, err = a.Channels().Update(beta.ID, func(c *config.Channel) error { c.Profile = "beta"; return nil })
	require.NoError(t, err)
	res, err = chat(t, a, beta.ID, "which model are you?")
	require.NoError(t, err)
	require.Equal(t, "This is model beta.", res.Text)
	require.Equal(t, "beta", res.Profile)
	require.Equal(t, "beta (openai beta)", a.Chat().ProviderLabel("tui", beta.ID))
	res, err = chat(t, a, config.DefaultChannel, "which model are you?")
	require.NoError(t, err)
	require.Equal(t, "This is model alpha.", res.Text)

	// A profile that does not exist is refused when saved…
	_, err = a.Channels().Update(beta.ID, func(c *config.Channel) error { c.Profile = "gamma"; return nil })
	require.ErrorContains(t, err, `no profile named "gamma"`)
	// …and one removed from ai-provider.json later fails the turn naming it.
	_, _, err = config.Edit(config.NewStore(a.Paths().Config), config.AIProviderFile, "", config.DefaultAIProvider, func(c *config.AIProvider) error {
		delete(c.Profiles, "beta")
		return nil
	})
	require.NoError(t, err)
	_, err = chat(t, a, beta.ID, "which model are you?")
	require.ErrorContains(t, err, `profiles.beta`)

	// The Ask connector is the channel "mcp-ask": the same entry shape
	// refuses placeOrder to the other agent.
	ask := mcpClient(t, a.AskURL())
	out, isErr := callText(t, ask, "askWithSession", map[string]any{"message": "buy 1 MSFT", "sessionId": "bot"})
	require.False(t, isErr, out)
	require.Contains(t, out, "tool placeOrder is disabled for this channel")
	require.Len(t, a.Trading().Pending(), 1, "still only the default channel's commit")

	// Every channel kept its own session.
	for _, id := range []string{"tui/cautious", "tui/default", channel.SessionOf(beta.ID), "mcp-ask__bot"} {
		sum, err := a.Chat().Summary(id)
		require.NoError(t, err, id)
		require.Positive(t, sum.Messages, id)
	}
}
