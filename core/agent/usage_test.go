package agent

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every model turn is counted in the usage log, also when the backend
// reports no token usage (the OpenAI-compatible server below sends none,
// like the mock LLM and the CLI backends): its tokens and cost are then
// unknown, not zero (#26: Portfolio `v` showed Turns 0).
func TestUsageCountsTurnsWithoutReportedTokens(t *testing.T) {
	t.Parallel()
	var seen []map[string]any
	var mu sync.Mutex
	oa := openAIServer(t, &seen, &mu)
	defer oa.Close()
	an := anthropicServer(t)
	defer an.Close()
	for _, tc := range []struct {
		name, cfg                      string
		unreported, unpriced, outToken int64
	}{
		{"openai without usage", `{"activeProfile":"p","profiles":{"p":{"backend":"openai","model":"m","baseUrl":"` + oa.URL + `/v1"}}}`, 3, 0, 0},
		{"anthropic with usage", `{"activeProfile":"p","profiles":{"p":{"backend":"anthropic","model":"claude-test","baseUrl":"` + an.URL + `","apiKey":"test-key"}}}`, 0, 3, 30},
	} {
		f := newFixture(t, tc.cfg)
		require.NotNil(t, f.center.d.Usage, "the default usage log under DataDir")
		s, err := f.center.AskWithSession(context.Background(), "What do 10 AAPL cost?", "tui/default", Options{Channel: "tui"})
		require.NoError(t, err, tc.name)
		_, err = s.Wait()
		require.NoError(t, err, tc.name)
		got, err := f.center.d.Usage.Sessions()
		require.NoError(t, err, tc.name)
		require.Len(t, got, 1, tc.name)
		require.Equal(t, 3, got[0].Turns, "%s: three model turns (two tool calls, one answer)", tc.name)
		require.EqualValues(t, tc.unreported, got[0].UnreportedTurns, tc.name)
		require.EqualValues(t, tc.outToken, got[0].OutputTokens, tc.name)
		require.EqualValues(t, tc.unpriced, got[0].UnpricedTurns, "%s: an unreported turn is not an unpriced one", tc.name)
	}
}
