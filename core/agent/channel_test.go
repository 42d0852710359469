package agent

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

// fakeChannels is a channels.json stand-in.
type fakeChannels map[string]config.Channel

func (f fakeChannels) Lookup(id string) (config.Channel, bool, error) {
	c, ok := f[id]
	return c, ok, nil
}

func toolNamesIn(body map[string]any) []string {
	var out []string
	tools, _ := body["tools"].([]any)
	for _, t := range tools {
		fn := t.(map[string]any)["function"].(map[string]any)
		out = append(out, fn["name"].(string))
	}
	return out
}

func systemIn(body map[string]any) string {
	m := body["messages"].([]any)[0].(map[string]any)
	if m["role"] != "system" {
		return ""
	}
	s, _ := m["content"].(string)
	return s
}

// A channel's entry applies to every turn naming it: its tools are
// hidden, its persona addition follows the persona, OpenAlice's
// systemPrompt replaces the persona, and Channel doubles as the id.
func TestChannelConfigAppliesToTurns(t *testing.T) {
	t.Parallel()
	llm := newScriptedOpenAI(t, func(map[string]any) turn { return turn{text: "ok"} })
	f := newFixture(t, llm.profile())
	f.center.d.Channels = fakeChannels{
		"quiet":    {ID: "quiet", Label: "Quiet", DisabledTools: []string{"getQuote"}, Persona: "Answer in one line."},
		"legacy":   {ID: "legacy", Label: "Legacy", SystemPrompt: "You are a terse bot."},
		"telegram": {ID: "telegram", Label: "Telegram", Persona: "Plain text only."},
	}

	_, err := ask(t, f.center, "tui/quiet", "hi", Options{Channel: "tui", ChannelID: "quiet"})
	require.NoError(t, err)
	body := llm.last()
	require.NotContains(t, toolNamesIn(body), "getQuote")
	require.Contains(t, toolNamesIn(body), "calculate")
	sys := systemIn(body)
	require.Contains(t, sys, "You are Alice.\n\nAnswer in one line.")

	_, err = ask(t, f.center, "tui/legacy", "hi", Options{Channel: "tui", ChannelID: "legacy"})
	require.NoError(t, err)
	sys = systemIn(llm.last())
	require.Contains(t, sys, "You are a terse bot.")
	require.NotContains(t, sys, "You are Alice.")

	_, err = ask(t, f.center, "telegram/7", "hi", Options{Channel: "telegram", Preamble: "Via Telegram."})
	require.NoError(t, err)
	require.Contains(t, systemIn(llm.last()), "You are Alice.\n\nPlain text only.\n\nVia Telegram.")

	_, err = ask(t, f.center, "tui/default", "hi", Options{Channel: "tui", ChannelID: "default"})
	require.NoError(t, err)
	require.Contains(t, toolNamesIn(llm.last()), "getQuote", "a channel without an entry keeps every tool")
}
