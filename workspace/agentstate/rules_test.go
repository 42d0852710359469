package agentstate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestShippedRulesLoad(t *testing.T) {
	rs, err := LoadRules("")
	require.NoError(t, err)
	assert.Equal(t, []string{"claude", "codex", "opencode", "shell"}, rs.Agents())
	c := rs.For("claude")
	assert.Equal(t, Working, c.matchTitle("⠂ Claude Code"))
	assert.Equal(t, Idle, c.matchTitle("✳ Claude Code"))
	assert.Equal(t, Unknown, c.matchTitle("vim"))
	// An agent without a file still hears bells.
	g := rs.For("aider")
	assert.Equal(t, NeedsYou, g.Bell)
	assert.Equal(t, Idle, g.Default)
}

func TestOverrideReplacesAnAgentsRules(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "claude.json"),
		[]byte(`{"title":[{"match":"^BUSY","state":"working"}],"bell":"","default":"idle"}`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "aider.json"),
		[]byte(`{"screen":[{"match":"^> $","state":"idle","lines":1}],"bell":"needs-you"}`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("ignored"), 0o600))
	rs, err := LoadRules(dir)
	require.NoError(t, err)
	assert.Equal(t, Working, rs.For("claude").matchTitle("BUSY now"))
	assert.Equal(t, Unknown, rs.For("claude").matchTitle("⠂ Claude Code"))
	assert.Equal(t, Unknown, rs.For("claude").Bell)
	assert.Equal(t, []string{"aider", "claude", "codex", "opencode", "shell"}, rs.Agents())
}

func TestBrokenOverrideNamesFileAndKeyAndKeepsDefaults(t *testing.T) {
	cases := []struct {
		body, wantErr string
	}{
		{`{"screen":[{"match":"(","state":"idle"}]}`, "screen[0].match"},
		{`{"title":[{"match":"x","state":"busy"}]}`, `title[0].state: unknown state "busy"`},
		{`{"title":[{"state":"idle"}]}`, "title[0].match: required"},
		{`{"screen":[{"match":"x","state":"done"}]}`, "screen[0].state"},
		{`{"screen":[{"match":"x","state":"idle","lines":-1}]}`, "screen[0].lines"},
		{`{"bell":"loud"}`, "bell: unknown state"},
		{`{"titel":[]}`, `unknown field "titel"`},
		{`{"title":`, "unexpected EOF"},
	}
	for _, c := range cases {
		t.Run(c.wantErr, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "claude.json")
			require.NoError(t, os.WriteFile(p, []byte(c.body), 0o600))
			rs, err := LoadRules(dir)
			require.Error(t, err)
			assert.Contains(t, err.Error(), p)
			assert.Contains(t, err.Error(), c.wantErr)
			require.NotNil(t, rs)
			assert.Equal(t, Working, rs.For("claude").matchTitle("⠂ Claude Code"), "built-in rules stay in force")
		})
	}
}

func TestStateNamesRoundTrip(t *testing.T) {
	glyphs := map[string]bool{}
	for s := Unknown; s <= Exited; s++ {
		b, err := s.MarshalText()
		require.NoError(t, err)
		var back State
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, s, back)
		glyphs[s.Glyph()] = true
	}
	assert.Len(t, glyphs, 7, "every state has its own glyph shape")
	assert.Error(t, new(State).UnmarshalText([]byte("busy")))
	assert.True(t, NeedsYou.Alerting() && Done.Alerting() && Errored.Alerting())
	assert.False(t, Working.Alerting() || Idle.Alerting() || Exited.Alerting())
}

// opencode's screen rules on the lines its TUI shows (table).
func TestOpenCodeScreenRules(t *testing.T) {
	rs, err := LoadRules("")
	require.NoError(t, err)
	oc := rs.For("opencode")
	cases := []struct {
		screen string
		want   State
	}{
		{"┃  Ask anything… \"What is the tech stack of this project?\"\n┃  Build · Big Pickle OpenCode Zen", Unknown},
		{"┃ ⬝⬝⬝■■■  esc interrupt", Working},
		{"   ⬝Cannot⬝connect to API: Unable to connect. Is the computer able to access the url… [retrying atte\n    #1]", Working},
		{"△ Permission required\n  Allow once   Allow always   Reject", NeedsYou},
		{"  ┃  say hi\n  ┃  AI_APICallError: Unauthorized: invalid x-api-key\n  ┃  Build · Big Pickle OpenCode Zen\n  ╹▀▀▀▀", Errored},
	}
	for _, c := range cases {
		st, _ := oc.matchScreen(strings.Split(c.screen, "\n"))
		assert.Equal(t, c.want, st, c.screen)
	}
	assert.Equal(t, NeedsYou, oc.Bell)
	assert.Equal(t, Idle, oc.Default)
}

// TestScreenLinesIsWhatTheRulesRead checks the number of bottom lines the
// workspace renders for each agent's screen rules: the most any rule
// reads, and none for an agent without screen rules (a shell).
func TestScreenLinesIsWhatTheRulesRead(t *testing.T) {
	rs, err := LoadRules("")
	require.NoError(t, err)
	cases := []struct {
		agent string
		want  int
	}{
		{"claude", defaultScreenLines}, // rules without "lines" read the default
		{"codex", defaultScreenLines},
		{"opencode", 12},
		{"shell", 0},
		{"aider", 0}, // generic rules: bells and notifications only
	}
	for _, c := range cases {
		assert.Equal(t, c.want, rs.For(c.agent).ScreenLines(), c.agent)
	}
	r, err := ParseRules("x", "x.json", []byte(`{"screen":[{"match":"a","state":"idle","lines":3},{"match":"b","state":"working","lines":30}]}`))
	require.NoError(t, err)
	assert.Equal(t, 30, r.ScreenLines())
	// The last ScreenLines non-blank lines decide as the whole screen does.
	c := rs.For("claude")
	var screen, nonBlank []string
	for i := 0; i < 30; i++ {
		screen = append(screen, "filler")
	}
	screen = append(screen, "Do you want to proceed?", "", "")
	for i := 0; i < c.ScreenLines()-1; i++ {
		screen = append(screen, "option", "")
	}
	for _, l := range screen {
		if l != "" {
			nonBlank = append(nonBlank, l)
		}
	}
	st, why := c.matchScreen(screen)
	require.Equal(t, NeedsYou, st)
	st2, why2 := c.matchScreen(nonBlank[len(nonBlank)-c.ScreenLines():])
	assert.Equal(t, st, st2)
	assert.Equal(t, why, why2)
}
