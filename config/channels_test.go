package config

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestChannelsFileValidation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body, wantKey, wantMsg string
	}{
		{"unknown key names path and nearest", `{"channels":[{"id":"a","label":"A","disabledTool":["placeOrder"]}]}`,
			"channels[0].disabledTool", `did you mean "disabledTools"`},
		{"unknown top key", `{"chanels":[]}`, "chanels", `did you mean "channels"`},
		{"unknown workspace key", `{"channels":[],"workspaces":{"w":{"profle":"x"}}}`, "workspaces.w.profle", `did you mean "profile"`},
		{"far-off key lists the known ones", `{"channels":[{"id":"a","label":"A","zzzzzzzz":1}]}`, "channels[0].zzzzzzzz", "known keys here: archived, disabledTools, id, label, persona, profile, systemPrompt"},
		{"bad id", `{"channels":[{"id":"../x","label":"A"}]}`, "channels[0].id", "a-z"},
		{"upper-case id", `{"channels":[{"id":"Research","label":"A"}]}`, "channels[0].id", "a-z"},
		{"duplicate id", `{"channels":[{"id":"a","label":"A"},{"id":"a","label":"B"}]}`, "channels[1].id", "duplicate"},
		{"duplicate label", `{"channels":[{"id":"a","label":"Ideas"},{"id":"b","label":"ideas"}]}`, "channels[1].label", "already the label"},
		{"empty label", `{"channels":[{"id":"a","label":"  "}]}`, "channels[0].label", "must not be empty"},
		{"blank tool", `{"channels":[{"id":"a","label":"A","disabledTools":[""]}]}`, "channels[0].disabledTools[0]", "must name a tool"},
		{"default not archivable", `{"channels":[{"id":"default","label":"Alice","archived":true}]}`, "channels[0].archived", "cannot be archived"},
		{"wrong type", `{"channels":[{"id":"a","label":"A","disabledTools":"placeOrder"}]}`, "channels[0].disabledTools", "expected an array"},
		{"workspace without profile", `{"channels":[],"workspaces":{"w":{"profile":""}}}`, "workspaces.w.profile", "must name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := NewStore(t.TempDir())
			require.NoError(t, os.WriteFile(s.Path(ChannelsFile), []byte(tc.body), 0o600))
			_, err := s.Channels()
			var ce *Error
			require.True(t, errors.As(err, &ce), "got %v", err)
			require.Equal(t, s.Path(ChannelsFile), ce.File)
			require.Equal(t, tc.wantKey, ce.Key)
			require.Contains(t, ce.Error(), tc.wantMsg)
			require.Contains(t, ce.Error(), ChannelsFile)
		})
	}
}

func TestChannelsFileLoadsOpenAliceShape(t *testing.T) {
	t.Parallel()
	s := NewStore(t.TempDir())
	body := `{"$schema":"./channels.schema.json","channels":[
	  {"id":"research","label":"Research","systemPrompt":"S","profile":"p","disabledTools":["placeOrder"]},
	  {"id":"telegram","label":"Telegram","persona":"Be brief.","archived":false}],
	 "workspaces":{"quant":{"profile":"p"}}}`
	require.NoError(t, os.WriteFile(s.Path(ChannelsFile), []byte(body), 0o600))
	c, err := s.Channels()
	require.NoError(t, err)
	r, ok := c.Find("research")
	require.True(t, ok)
	require.Equal(t, Channel{ID: "research", Label: "Research", SystemPrompt: "S", Profile: "p", DisabledTools: []string{"placeOrder"}}, r)
	require.Equal(t, "p", c.Workspaces["quant"].Profile)
	_, ok = c.Find("nope")
	require.False(t, ok)
}

func TestChannelProfilesMustExist(t *testing.T) {
	t.Parallel()
	s := NewStore(t.TempDir())
	require.NoError(t, os.WriteFile(s.Path(AIProviderFile), []byte(`{"profiles":{"mock":{"backend":"openai","baseUrl":"http://x"}}}`), 0o600))
	require.NoError(t, os.WriteFile(s.Path(ChannelsFile), []byte(`{"channels":[{"id":"a","label":"A","profile":"mokc"}]}`), 0o600))
	err := s.CheckAll()
	var ce *Error
	require.True(t, errors.As(err, &ce), "got %v", err)
	require.Equal(t, "channels[0].profile", ce.Key)
	require.Contains(t, ce.Error(), `did you mean "mock"`)

	require.NoError(t, os.WriteFile(s.Path(ChannelsFile), []byte(`{"channels":[],"workspaces":{"q":{"profile":"other"}}}`), 0o600))
	err = s.CheckAll()
	require.True(t, errors.As(err, &ce), "got %v", err)
	require.Equal(t, "workspaces.q.profile", ce.Key)

	require.NoError(t, os.WriteFile(s.Path(ChannelsFile), []byte(`{"channels":[{"id":"a","label":"A","profile":"mock"}],"workspaces":{"q":{"profile":"mock"}}}`), 0o600))
	require.NoError(t, s.CheckAll())
}

func TestNearest(t *testing.T) {
	t.Parallel()
	known := []string{"channels", "workspaces", "disabledTools", "profile"}
	for _, tc := range []struct{ in, want string }{
		{"chanels", "channels"}, {"Channels", "channels"}, {"disabledtool", "disabledTools"},
		{"profiel", "profile"}, {"xyz", ""}, {"workspace", "workspaces"},
	} {
		require.Equal(t, tc.want, Nearest(tc.in, known), tc.in)
	}
	require.Equal(t, "", Nearest("a", nil))
}
