package schedule

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAutomationJobs(t *testing.T) {
	e := newEnv(t)
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	eng, err := NewEngine(e.dir, e.worker, e.log, nil, func() time.Time { return now }, WithLocation(time.UTC))
	require.NoError(t, err)
	hb := NewHeartbeat(e.store, e.worker, e.log, nil)
	hb.now = func() time.Time { return now }
	a := NewAutomation(eng, hb)

	for _, tc := range []struct {
		name string
		in   JobInput
		err  string
	}{
		{"no name", JobInput{Schedule: "every 1h"}, "name and payload are required"},
		{"no schedule", JobInput{Name: "x"}, "schedule"},
		{"bad cron", JobInput{Name: "x", Schedule: "61 * * * *"}, "5 fields"},
		{"unknown job", JobInput{ID: "nope", Name: "x", Prompt: "p", Schedule: "every 1h"}, "nope"},
	} {
		_, err := a.SaveJob(tc.in)
		require.ErrorContains(t, err, tc.err, tc.name)
	}
	assert.Empty(t, a.Jobs(), "refused input adds nothing")

	j, err := a.SaveJob(JobInput{Name: "open", Prompt: "check the open", Schedule: "30 9 * * 1-5", Enabled: true})
	require.NoError(t, err)
	require.Len(t, a.Jobs(), 1)
	assert.Equal(t, KindCron, a.Jobs()[0].Schedule.Kind)

	_, err = a.SaveJob(JobInput{ID: j.ID, Name: "hourly", Prompt: "look", Schedule: "every 1h", Enabled: true})
	require.NoError(t, err)
	got := a.Jobs()[0]
	assert.Equal(t, "hourly", got.Name)
	assert.Equal(t, "every 1h", got.Schedule.String())
	require.NotNil(t, got.State.NextRunAtMs)
	assert.Equal(t, now.Add(time.Hour).UnixMilli(), *got.State.NextRunAtMs)

	require.NoError(t, a.SetJobEnabled(j.ID, false))
	assert.False(t, a.Jobs()[0].Enabled)

	e.agent.set(notifyUser("done"), nil)
	out, err := a.RunJobNow(context.Background(), j.ID)
	require.NoError(t, err)
	assert.True(t, out.Delivered, "run now fires a disabled job")

	times, err := a.Preview("every 2h", 3)
	require.NoError(t, err)
	assert.Equal(t, []time.Time{now.Add(2 * time.Hour), now.Add(4 * time.Hour), now.Add(6 * time.Hour)}, times)
	_, err = a.Preview("whenever", 3)
	require.Error(t, err)

	require.NoError(t, a.RemoveJob(j.ID))
	assert.Empty(t, a.Jobs())
	require.Error(t, a.RemoveJob(j.ID))
}

func TestAutomationHeartbeat(t *testing.T) {
	e := newEnv(t)
	hb := NewHeartbeat(e.store, e.worker, e.log, nil)
	hb.now = func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }
	eng, err := NewEngine(e.dir, e.worker, e.log, nil, nil)
	require.NoError(t, err)
	a := NewAutomation(eng, hb)

	assert.False(t, a.HeartbeatEnabled())
	require.NoError(t, a.SetHeartbeat(true))
	assert.True(t, a.HeartbeatEnabled())
	select {
	case <-hb.wake:
	default:
		t.Fatal("switching the heartbeat wakes its loop")
	}
	a.WakeHeartbeat()
	select {
	case <-hb.wake:
	default:
		t.Fatal("WakeHeartbeat wakes the loop")
	}
	e.agent.set(notifyUser("Cash is idle"), nil)
	assert.True(t, a.RunHeartbeatNow(context.Background()).Delivered)
	require.NoError(t, a.SetHeartbeat(false))
	assert.False(t, a.HeartbeatEnabled())
}
