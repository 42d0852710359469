package script

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestScriptWalksStageCommitPush(t *testing.T) {
	var msgs []message
	require.NoError(t, json.Unmarshal([]byte(`[{"role":"user","content":"please buy 10 aapl"}]`), &msgs))
	r := decide(msgs)
	require.Equal(t, "placeOrder", r.toolName)
	require.Contains(t, r.toolArgs, `"aliceId":"sim-paper|AAPL"`)
	for _, step := range []struct{ prev, next string }{{"placeOrder", "tradingCommit"}, {"tradingCommit", "tradingPush"}} {
		require.NoError(t, json.Unmarshal([]byte(`[{"role":"user","content":"buy 10 aapl"},{"role":"assistant","content":"","tool_calls":[{"function":{"name":"`+step.prev+`"}}]},{"role":"tool","content":"{}","tool_call_id":"x"}]`), &msgs))
		require.Equal(t, step.next, decide(msgs).toolName)
	}
	require.NoError(t, json.Unmarshal([]byte(`[{"role":"user","content":"hello"}]`), &msgs))
	require.Equal(t, "You said: hello", decide(msgs).text)
}
