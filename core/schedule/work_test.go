package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestCronFiresThroughAgentNotifyUserToLastTouchedChannel is the
// end-to-end path: a due cron job fires (cron.fire) → agent.work.requested
// → the agent calls notify_user → the notification reaches the connector
// the user last touched, and every step is in the event log.
func TestCronFiresThroughAgentNotifyUserToLastTouchedChannel(t *testing.T) {
	e := newEnv(t)
	now := time.Date(2026, 11, 20, 8, 59, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	eng, err := NewEngine(e.dir, e.worker, e.log, nil, clock, WithLocation(time.UTC))
	require.NoError(t, err)
	_, err = eng.Add("open bell", "Check the pre-market movers", Schedule{Kind: KindCron, Cron: "0 9 * * *"}, true)
	require.NoError(t, err)

	e.conns.Touch("tui", "tui/default")
	e.conns.Touch("telegram", "42") // the user's latest channel
	res := notifyUser("NVDA is up 6% pre-market")
	res.Text = "" // the agent notified and ended its turn silently
	e.agent.set(res, nil)
	now = now.Add(time.Minute)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	eng.Start(ctx)
	// The message reaches Telegram before the task's outcome is recorded
	// and the job's state saved: wait for that, not for the message (Close
	// cancels a run whose outcome has not arrived yet).
	require.Eventually(t, func() bool { return eng.List()[0].State.LastStatus != nil }, 30*time.Second, 5*time.Millisecond)
	require.NoError(t, eng.Close())

	require.Equal(t, []string{"NVDA is up 6% pre-market"}, e.tg.texts())
	require.Empty(t, e.tui.texts())
	require.Equal(t, []string{"cron/default: Check the pre-market movers"}, e.agent.calls)
	require.Equal(t, "You are operating in the cron job context (session: cron/default, job: open bell). This is an automated cron job execution.", e.agent.preambles[0])
	entries := e.log.Recent()
	require.Equal(t, []string{"cron.fire", "agent.work.requested", "agent.work.started", "agent.work.done"}, e.types())
	require.Equal(t, entries[0].Seq, entries[1].CausedBy)
	require.Equal(t, entries[1].Seq, entries[2].CausedBy)
	require.Equal(t, entries[1].Seq, entries[3].CausedBy)
	var done map[string]any
	require.NoError(t, json.Unmarshal(entries[3].Payload, &done))
	require.Equal(t, true, done["delivered"])
	require.Equal(t, "telegram", done["channel"])

	stored, err := e.conns.Recent(0)
	require.NoError(t, err)
	require.Len(t, stored, 1)
	require.Equal(t, "cron", stored[0].Source)
	require.Equal(t, "important", stored[0].Urgency)
}

func TestWorkerOutcomes(t *testing.T) {
	cases := []struct {
		name   string
		src    Source
		res    Result
		err    error
		skip   string
		text   string
		evType string
	}{
		{"cron reply delivered", SourceCron, Result{Text: " Summary. "}, nil, "", "Summary.", "agent.work.done"},
		{"cron reply preferred", SourceCron, notifyUser("Alert!"), nil, "", "done", "agent.work.done"},
		{"cron silent notify_user", SourceCron, Result{ToolCalls: notifyUser("Alert!").ToolCalls}, nil, "", "Alert!", "agent.work.done"},
		{"cron empty", SourceCron, Result{Text: "  "}, nil, "empty", "", "agent.work.skip"},
		{"task error", SourceTask, Result{}, errors.New("provider down"), "", "", "agent.work.error"},
		{"heartbeat silent", SourceHeartbeat, Result{Text: "all quiet"}, nil, "ack", "", "agent.work.skip"},
		{"heartbeat malformed notify", SourceHeartbeat, Result{ToolCalls: []ToolCall{{Name: "notify_user", Input: json.RawMessage(`{"text":5}`)}}}, nil, "empty", "", "agent.work.skip"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.agent.set(tc.res, tc.err)
			out := e.worker.Run(context.Background(), Request{Source: tc.src, Prompt: "go"})
			require.Equal(t, tc.skip, out.Skip)
			require.Equal(t, tc.err, out.Err)
			if tc.text != "" {
				require.Equal(t, []string{tc.text}, e.tui.texts())
			} else {
				require.Empty(t, e.tui.texts())
			}
			types := e.types()
			require.Equal(t, tc.evType, types[len(types)-1])
		})
	}
}

func TestSameSourceOverlapIsSkipped(t *testing.T) {
	e := newEnv(t)
	e.agent.block = make(chan struct{})
	e.agent.set(Result{Text: "slow"}, nil)
	first := make(chan Outcome)
	go func() { first <- e.worker.Run(context.Background(), Request{Source: SourceCron, Prompt: "slow"}) }()
	require.Eventually(t, func() bool { return e.agent.count() == 1 }, 30*time.Second, 5*time.Millisecond)

	require.Equal(t, "busy", e.worker.Run(context.Background(), Request{Source: SourceCron, Prompt: "again"}).Skip)
	other := make(chan Outcome)
	go func() { other <- e.worker.Run(context.Background(), Request{Source: SourceTask, Prompt: "task"}) }()
	require.Eventually(t, func() bool { return e.agent.count() == 2 }, 30*time.Second, 5*time.Millisecond, "another source is not blocked")
	close(e.agent.block)
	require.True(t, (<-first).Delivered)
	require.True(t, (<-other).Delivered)
	require.Equal(t, 2, e.agent.count())
}

func TestHeartbeatDuplicateGateRetriesFailedDelivery(t *testing.T) {
	e := newEnv(t)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	e.worker.now = func() time.Time { return now }
	e.agent.set(notifyUser("Margin call risk on paper-1"), nil)
	run := func() Outcome {
		return e.worker.Run(context.Background(), Request{Source: SourceHeartbeat, Prompt: "check"})
	}

	e.tui.fail = true
	out := run()
	require.Error(t, out.Err)
	e.tui.fail = false
	require.True(t, run().Delivered, "a failed delivery is not a duplicate")
	require.Equal(t, "duplicate", run().Skip)
	now = now.Add(24*time.Hour + time.Second)
	require.True(t, run().Delivered, "after 24 h the same alert may be sent again")
	require.Equal(t, 2, strings.Count(strings.Join(e.tui.texts(), "\n"), "Margin call"))
}

func TestTaskRequestsQueueInsteadOfBeingDropped(t *testing.T) {
	e := newEnv(t)
	e.agent.block = make(chan struct{})
	e.agent.set(Result{Text: "ok"}, nil)
	outs := make(chan Outcome, 2)
	for _, p := range []string{"first", "second"} {
		go func() { outs <- e.worker.Run(context.Background(), Request{Source: SourceTask, Prompt: p}) }()
	}
	require.Eventually(t, func() bool { return e.agent.count() == 1 }, 30*time.Second, 5*time.Millisecond)
	close(e.agent.block)
	for range 2 {
		out := <-outs
		require.True(t, out.Delivered, out.String())
	}
	require.Equal(t, 2, e.agent.count(), "the second task ran after the first")

	out := e.worker.Run(context.Background(), Request{Source: "gossip", Prompt: "x"})
	require.ErrorContains(t, out.Err, "unknown work source")
}
