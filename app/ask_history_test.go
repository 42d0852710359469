package app_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
)

// getSessionHistory over the Ask connector carries the tool lines
// OpenAlice's toTextHistory produces, so an external client sees what
// Alice did, not only what she said.
func TestAskHistoryIncludesToolSummaryLines(t *testing.T) {
	t.Parallel()
	llm := echoLLM(t)
	a := apptest.StartWithAsk(t, func(askPort int) map[string]string {
		return map[string]string{
			config.ConnectorsFile: fmt.Sprintf(`{"mcpAsk":{"enabled":true,"port":%d}}`, askPort),
			config.AIProviderFile: `{"activeProfile":"mock","profiles":{"mock":{"backend":"openai","model":"m","baseUrl":"` + llm.URL + `/v1"}}}`,
		}
	})

	ask := mcpClient(t, a.AskURL())
	out, isErr := callText(t, ask, "askWithSession", map[string]any{"message": "please notify me", "sessionId": "tools"})
	require.False(t, isErr, out)
	out, isErr = callText(t, ask, "getSessionHistory", map[string]any{"sessionId": "tools"})
	require.False(t, isErr, out)
	var hist struct {
		Messages []struct{ Role, Text string } `json:"messages"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &hist))
	var all []string
	for _, m := range hist.Messages {
		all = append(all, m.Role+": "+m.Text)
	}
	joined := strings.Join(all, "\n")
	require.Contains(t, joined, "user: please notify me")
	require.Contains(t, joined, `[Tool: notify_user {"text":"webhook says hi"}]`)
	require.Contains(t, joined, "[Result: ")
}
