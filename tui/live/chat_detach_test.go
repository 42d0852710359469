package live

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/kit"
)

// gatedModel is an OpenAI-compatible model that streams "part one", then
// waits for release before it streams "part two" and stops.
func gatedModel(t *testing.T, release <-chan struct{}) string {
	t.Helper()
	chunk := func(w http.ResponseWriter, delta, finish string) {
		fin := "null"
		if finish != "" {
			fin = fmt.Sprintf("%q", finish)
		}
		fmt.Fprintf(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":%q},"finish_reason":%s}]}`+"\n\n", delta, fin)
		w.(http.Flusher).Flush()
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		chunk(w, "part one ", "")
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		chunk(w, "part two", "")
		chunk(w, "", "stop")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// A chat turn belongs to the core, not to the terminal that asked: when
// the client detaches (or its terminal closes) mid-reply the turn goes on
// and its whole reply is in the session the next client loads. Esc or
// quitting (a plain cancel) still stops it.
func TestChatTurnOutlivesADetachedClient(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		cause       error
		interrupted bool
	}{
		{"detached", kit.ErrDetached, false},
		{"stopped", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			home := apptest.Home(t, map[string]string{
				"ai-provider.json": fmt.Sprintf(`{"activeProfile":"m","profiles":{"m":{"backend":"openai","model":"m","baseUrl":%q}}}`, gatedModel(t, release)),
			})
			a := apptest.Run(t, home)
			core := New(a)
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			events, err := core.Send(ctx, "tui/default", "tell me more")
			require.NoError(t, err)
			for ev := range events { // the reply has begun
				if ev.Kind == chat.ChatDelta {
					break
				}
			}
			cancel(tc.cause) // nobody reads the events any more
			if tc.interrupted {
				// The rest of the reply only comes after the turn has
				// ended: a stop that raced "part two" would prove nothing.
				t.Cleanup(func() { close(release) })
			} else {
				close(release)
			}
			require.Eventually(t, func() bool {
				msgs, err := core.History("tui/default", 10)
				if err != nil || len(msgs) == 0 {
					return false
				}
				last := msgs[len(msgs)-1]
				return last.Role == chat.RoleAssistant && (strings.Contains(last.Text, "part two") || strings.Contains(last.Text, "[interrupted]"))
			}, 30*time.Second, 20*time.Millisecond, "the turn ended")
			msgs, err := core.History("tui/default", 10)
			require.NoError(t, err)
			last := msgs[len(msgs)-1].Text
			if tc.interrupted {
				require.Contains(t, last, "[interrupted]")
				require.NotContains(t, last, "part two")
			} else {
				require.Equal(t, "part one part two", strings.TrimSpace(last))
			}
		})
	}
}
