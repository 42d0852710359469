package schedule

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

// TestHeartbeatResumesItsScheduleAfterARestart: the interval counts from
// the last heartbeat the work queue kept, not from the start of the core.
// The last one ran 59 s of a 1 min interval ago, before a restart: the
// next one is due within a second, not a whole minute after the start.
func TestHeartbeatResumesItsScheduleAfterARestart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	require.NoError(t, os.WriteFile(e.store.Path(config.HeartbeatFile), []byte(`{"enabled":true,"every":"1m","prompt":"check"}`), 0o600))
	before := time.Now().Add(-59 * time.Second)
	w := e.reopen(t, WorkerOptions{Now: func() time.Time { return before }})
	require.Empty(t, w.Run(context.Background(), Request{Source: SourceHeartbeat, Prompt: "check"}).Err)
	require.NoError(t, w.Close())
	require.Equal(t, 1, e.agent.count())

	w2 := e.reopen(t, WorkerOptions{}) // the restart
	hb := NewHeartbeat(e.store, w2, e.log, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { hb.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	require.Eventually(t, func() bool { return e.agent.count() >= 2 }, 20*time.Second, 10*time.Millisecond,
		"the heartbeat due 1 s after the restart ran (it waited a whole interval from the start)")
}
