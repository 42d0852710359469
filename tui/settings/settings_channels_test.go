package settings_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/settings"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Channels page lists every channel and edits one through
// SaveChannel: the name, profile and persona in a form, the hidden tools
// picked from the tool list, archive/restore; a refused label is shown
// next to its field.
func TestSettingsChannelsPage(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	fs.profiles["fast"] = settings.ProfileSetting{Name: "fast", Backend: "openai"}
	fs.profiles["deep"] = settings.ProfileSetting{Name: "deep", Backend: "openai"}
	fs.chans = []settings.ChannelSetting{
		{ID: "default", Label: "Alice"},
		{ID: "research", Label: "Research", Profile: "deep"},
		{ID: "telegram", Label: "Telegram", Connector: true},
	}
	h.Key("[", "r") // the last page
	scr := h.Screen()
	require.Contains(t, scr, "/cfg/channels.json")
	assert.Contains(t, scr, "▸ Alice (default)")
	assert.Contains(t, scr, "Research (research)")
	assert.Contains(t, scr, "connector")

	// A channel created elsewhere is listed as soon as the pane is shown
	// again (not on the next tick).
	h.Send(tea.KeyPressMsg{Code: '1', Mod: tea.ModAlt})
	fs.smu.Lock()
	fs.chans = append(fs.chans, settings.ChannelSetting{ID: "macro", Label: "Macro"})
	fs.smu.Unlock()
	h.Send(tea.KeyPressMsg{Code: '8', Mod: tea.ModAlt})
	assert.Contains(t, h.Screen(), "Macro (macro)")

	// Tools off in Research, picked from the tool list.
	h.Key("down", "o")
	require.True(t, h.M.Settings.Capturing(), "the picker takes every key")
	assert.Contains(t, h.Screen(), "Tools off in Research")
	h.Key("/")
	h.TypeText("order")
	assert.NotContains(t, h.Screen(), "getQuote", "the filter narrows the list")
	h.Key("enter", "space")
	assert.Contains(t, h.Screen(), "[x] placeOrder")
	h.Send(tuitest.CtrlS())
	require.False(t, h.M.Settings.Capturing(), "a successful save closes the picker")
	require.Len(t, fs.saved, 1)
	assert.Equal(t, settings.ChannelSetting{ID: "research", Label: "Research", Profile: "deep", DisabledTools: []string{"placeOrder"}}, fs.saved[0])
	scr = h.Screen()
	assert.Contains(t, scr, "▸ Research (research)")
	assert.Contains(t, scr, "1 tool off")
	assert.Contains(t, scr, "tools off: placeOrder")

	// Rename to a taken label: refused next to the Name field, nothing saved.
	h.Key("e")
	require.NotNil(t, h.M.Settings.Form)
	h.Send(tuitest.Ctrl('u'))
	h.TypeText("alice")
	h.Send(tuitest.CtrlS())
	require.NotNil(t, h.M.Settings.Form, "the form stays open on a refused save")
	assert.Contains(t, h.Screen(), `✗ "alice" is already the label of channel "default"`)
	require.Len(t, fs.saved, 1)
	// Name, profile back to the active one, persona addition.
	h.Send(tuitest.Ctrl('u'))
	h.TypeText("Deep research")
	h.Key("tab", "left", "tab")
	h.TypeText("Cite sources.")
	h.Send(tuitest.CtrlS())
	require.Nil(t, h.M.Settings.Form)
	require.Len(t, fs.saved, 2)
	assert.Equal(t, settings.ChannelSetting{ID: "research", Label: "Deep research", Persona: "Cite sources.", DisabledTools: []string{"placeOrder"}}, fs.saved[1])
	assert.Contains(t, h.Screen(), "persona +: Cite sources.")

	// Archive and restore; the default channel cannot be archived.
	h.Key("d")
	require.Len(t, fs.saved, 3)
	assert.True(t, fs.saved[2].Archived)
	assert.Contains(t, h.Screen(), "archived")
	h.Key("up", "d")
	require.Len(t, fs.saved, 3)
	assert.Contains(t, h.Screen(), "Alice cannot be archived")
}

// The tool picker's filter takes a paste (it was dropped; found in tmux).
func TestSettingsToolPickerFilterTakesAPaste(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	fs.chans = []settings.ChannelSetting{{ID: "default", Label: "Alice"}}
	h.Key("[", "r", "o", "/")
	h.Send(tea.PasteMsg{Content: "order\n"})
	assert.NotContains(t, h.Screen(), "getQuote", "the filter narrows the list")
	assert.Contains(t, h.Screen(), "placeOrder")
}

// n on the Channels page creates a chat channel through AddChannel (the
// channel service the chat's /new uses) and selects it; a taken name is
// refused next to the Name field and nothing is created.
func TestSettingsChannelsNew(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	fs.chans = []settings.ChannelSetting{
		{ID: "default", Label: "Alice"},
		{ID: "research", Label: "Research"},
	}
	h.Key("[", "r")
	require.Contains(t, h.Screen(), "▸ Alice (default)")

	h.Key("n")
	require.NotNil(t, h.M.Settings.Form)
	assert.Contains(t, h.Screen(), "New channel")
	assert.NotContains(t, h.Screen(), "AI profile", "no profiles: nothing to choose")
	h.TypeText("FX & Rates!")
	h.Key("enter")
	require.Nil(t, h.M.Settings.Form, "a created channel closes the form")
	require.Len(t, fs.created, 1)
	assert.Equal(t, settings.ChannelSetting{ID: "fx-rates", Label: "FX & Rates!"}, fs.created[0])
	scr := h.Screen()
	assert.Contains(t, scr, "▸ FX & Rates! (fx-rates)", "the new channel is selected")
	assert.NotContains(t, scr, "▸ Alice")

	// A name already in use (any case): the error is next to the field,
	// the form stays, nothing is created.
	h.Key("n")
	h.TypeText("research")
	h.Key("enter")
	require.NotNil(t, h.M.Settings.Form, "the form stays open on a refused name")
	assert.Contains(t, h.Screen(), `✗ a channel named "Research" already exists`)
	require.Len(t, fs.created, 1)
	h.Key("esc")
	require.Nil(t, h.M.Settings.Form)
	assert.Contains(t, h.Screen(), "▸ FX & Rates! (fx-rates)")

	// The palette offers it from any pane: it opens the same form.
	h.Send(tea.KeyPressMsg{Code: '1', Mod: tea.ModAlt})
	h.Send(tuitest.Ctrl('p'))
	h.TypeText("create a chat channel")
	require.Contains(t, h.Screen(), "Create a chat channel (Settings form)")
	h.Key("enter")
	require.NotNil(t, h.M.Settings.Form, "the palette entry presses n on the Channels page")
	assert.Contains(t, h.Screen(), "New channel")
}

// With profiles, the new-channel form offers them; the chosen one is
// passed on.
func TestSettingsChannelsNewWithProfile(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	fs.profiles["deep"] = settings.ProfileSetting{Name: "deep", Backend: "openai"}
	fs.chans = []settings.ChannelSetting{{ID: "default", Label: "Alice"}}
	h.Key("[", "r", "n")
	h.TypeText("Deep Dive")
	h.Key("enter")
	require.NotNil(t, h.M.Settings.Form, "enter moves to the profile field")
	assert.Contains(t, h.Screen(), "AI profile")
	h.Key("right", "enter")
	require.Nil(t, h.M.Settings.Form)
	require.Len(t, fs.created, 1)
	assert.Equal(t, settings.ChannelSetting{ID: "deep-dive", Label: "Deep Dive", Profile: "deep"}, fs.created[0])
	assert.Contains(t, h.Screen(), "▸ Deep Dive (deep-dive)")
}

// colOf is the display column where sub starts in the screen row holding
// line, or -1.
func colOf(screen, line, sub string) int {
	for _, r := range strings.Split(screen, "\n") {
		if strings.Contains(r, line) {
			if i := strings.Index(r, sub); i >= 0 {
				return ansi.StringWidth(r[:i])
			}
		}
	}
	return -1
}

// Table columns line up by display width: a channel named with CJK and an
// emoji (two columns each) and an over-long profile name start the next
// column where every other row does.
func TestSettingsTablesAlignWideText(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	h.Send(tuitest.WindowSize(100, 30))
	fs.chans = []settings.ChannelSetting{
		{ID: "default", Label: "Alice"},
		{ID: "jp", Label: "日本 🚀"},
	}
	h.Key("[", "r")
	scr := h.Screen()
	want := colOf(scr, "Alice (default)", "active")
	require.Positive(t, want, "%s", scr)
	assert.Equal(t, want, colOf(scr, "日本 🚀 (jp)", "active"), "%s", scr)

	fs.profiles["short"] = settings.ProfileSetting{Name: "short", Backend: "openai"}
	fs.profiles["a-very-long-profile-name"] = settings.ProfileSetting{Name: "a-very-long-profile-name", Backend: "anthropic"}
	fs.profiles["深度モデル🚀"] = settings.ProfileSetting{Name: "深度モデル🚀", Backend: "gemini"}
	h.Key("]", "r") // back to the first page, reloaded
	scr = h.Screen()
	want = colOf(scr, "short", "openai")
	require.Positive(t, want, "%s", scr)
	assert.Equal(t, want, colOf(scr, "a-very-long", "anthropic"), "%s", scr)
	assert.Equal(t, want, colOf(scr, "深度モデル", "gemini"), "%s", scr)
}
