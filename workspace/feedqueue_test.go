package workspace

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFeedQueueDirectFeedKeepsOrder: the reader may feed a read itself
// only while nothing is queued or being fed, and the feeder takes nothing
// while the reader feeds.
func TestFeedQueueDirectFeedKeepsOrder(t *testing.T) {
	t.Parallel()
	q := newFeedQueue()
	require.True(t, q.tryDirect(), "idle queue")
	assert.False(t, q.tryDirect(), "a direct feed is in progress")
	q.put([]byte("b"))
	q.release()
	assert.False(t, q.tryDirect(), "bytes are queued: they go first")
	batch, ok := q.take()
	require.True(t, ok)
	assert.Equal(t, "b", string(batch))
	assert.False(t, q.tryDirect(), "the feeder is feeding its batch")
	q.release()
	assert.True(t, q.tryDirect())
	q.release()
	q.close()
	assert.False(t, q.tryDirect(), "closed")
	_, ok = q.take()
	assert.False(t, ok)
}

// TestWatchedSessionKeepsEveryLineInOrder: output of a session a person
// looks at goes partly straight from the reader to the emulator and partly
// through the feeder; every line arrives, in order.
func TestWatchedSessionKeepsEveryLineInOrder(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "order", "chat")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	m.SetWatched(s.ID(), true)
	require.EqualValues(t, 1, s.watched.Load())
	waitScreen(t, s, "$")
	const n = 400
	require.NoError(t, s.Input([]byte(fmt.Sprintf("i=0; while [ $i -lt %d ]; do echo L$i; [ $((i%%50)) = 0 ] && sleep 0.01; i=$((i+1)); done; echo END-$((6*7))\r", n))))
	waitScreen(t, s, "END-42")
	var got []string
	for _, l := range append(s.Terminal().Scrollback(), strings.Split(s.Screen(), "\n")...) {
		if l = strings.TrimRight(l, " "); strings.HasPrefix(l, "L") {
			got = append(got, l)
		}
	}
	want := make([]string, n)
	for i := range want {
		want[i] = fmt.Sprintf("L%d", i)
	}
	assert.Equal(t, want, got)
	m.SetWatched(s.ID(), false)
	assert.Zero(t, s.watched.Load())
}
