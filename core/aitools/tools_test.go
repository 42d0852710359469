package aitools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"alice/core"
	"alice/core/session"
)

func TestCalculate(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{"1 + 2 * 3", "7", ""},
		{"(1 + 2) * 3", "9", ""},
		{"0.1 + 0.2", "0.3", ""},
		{"-5 + 2", "-3", ""},
		{"10 / 4", "2.5", ""},
		{"2 * (3 + (4 - 1)) / 3", "4", ""},
		{"1 / 0", "", "division by zero"},
		{"2 ^ 3", "", "position 3"},
		{"(1 + 2", "", "missing ')'"},
		{"", "", "empty"},
		{"abc", "", "only numbers"},
		{"1..2", "", "bad number"},
	}
	for _, tc := range cases {
		v, err := Calculate(tc.in)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, v.String(), tc.in)
	}
}

func TestToolsThroughToolCenter(t *testing.T) {
	sessions, err := session.NewStore(t.TempDir())
	require.NoError(t, err)
	_, err = sessions.Append("tui/default", session.NewText("user", "hello", "human"), session.NewText("assistant", "hi there", "openai"))
	require.NoError(t, err)
	tc := core.NewToolCenter(nil)
	Register(tc, sessions)
	ctx := context.Background()
	call := func(name, args string) (string, error) {
		r, err := tc.Call(ctx, name, json.RawMessage(args))
		return core.ResultText(r), err
	}
	out, err := call("calculate", `{"expression":"10 / 3"}`)
	require.NoError(t, err)
	require.JSONEq(t, `{"result":"3.3333"}`, out)
	out, err = call("readSession", `{"sessionId":"tui/default","limit":1}`)
	require.NoError(t, err)
	require.Contains(t, out, `"total":2`)
	require.Contains(t, out, "hi there")
	require.NotContains(t, out, `"hello"`)
	_, err = call("readSession", `{"sessionId":"../../etc/passwd"}`)
	require.ErrorContains(t, err, "invalid session id")
	out, err = call("listSessions", `{}`)
	require.NoError(t, err)
	require.Contains(t, out, "tui/default")
	out, err = call("notify_user", `{"text":"BTC broke 70k","urgency":"important"}`)
	require.NoError(t, err)
	require.JSONEq(t, `{"acknowledged":true,"text":"BTC broke 70k","urgency":"important"}`, out)
	_, err = call("notify_user", `{"text":"   "}`)
	require.Error(t, err)
	_, err = call("notify_user", `{"text":"x","urgency":"urgent"}`)
	require.Error(t, err)
}
