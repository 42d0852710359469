package schedule

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseScheduleTextAndPreview(t *testing.T) {
	from := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC) // a Friday
	cases := []struct {
		in    string
		kind  Kind
		first time.Time
		count int
	}{
		{"every 30m", KindEvery, from.Add(30 * time.Minute), 5},
		{"2h", KindEvery, from.Add(2 * time.Hour), 5},
		{"0 9 * * 1-5", KindCron, time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC), 5},
		{"2026-12-01T09:30:00Z", KindAt, time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC), 1},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			s, err := ParseScheduleText(c.in)
			require.NoError(t, err)
			assert.Equal(t, c.kind, s.Kind)
			got, err := Preview(s, from, 5)
			require.NoError(t, err)
			require.Len(t, got, c.count)
			assert.True(t, got[0].Equal(c.first), "first %s, want %s", got[0], c.first)
			for i := 1; i < len(got); i++ {
				assert.True(t, got[i].After(got[i-1]))
			}
			back, err := ParseScheduleText(s.String())
			require.NoError(t, err)
			assert.Equal(t, s, back)
		})
	}
	for _, bad := range []string{"", "every soon", "61 * * * *", "tomorrow"} {
		_, err := ParseScheduleText(bad)
		assert.Error(t, err, bad)
	}
	past, _ := ParseScheduleText("2020-01-01T00:00:00Z")
	_, err := Preview(past, from, 5)
	assert.ErrorContains(t, err, "never fires")
}

func TestMarketAndTargetText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want MarketSpec
	}{
		{"15m before close of sim-paper", MarketSpec{Account: "sim-paper", Event: "close", OffsetMinutes: -15}},
		{"5m after open of paper-1", MarketSpec{Account: "paper-1", Event: "open", OffsetMinutes: 5}},
		{"at open of sim-paper", MarketSpec{Account: "sim-paper", Event: "open"}},
	} {
		s, err := ParseScheduleText(tc.in)
		require.NoError(t, err, tc.in)
		require.Equal(t, KindMarket, s.Kind)
		require.Equal(t, tc.want, *s.Market)
		require.Equal(t, tc.in, s.String(), "round trip")
	}
	_, err := ParseScheduleText("900m before close of sim-paper")
	require.ErrorContains(t, err, "offsetMinutes must be within")

	targets := []struct {
		in, out string
		err     string
	}{
		{"", "alice", ""},
		{"alice", "alice", ""},
		{"oneshot shell", "oneshot shell", ""},
		{"oneshot claude in research", "oneshot claude in research", ""},
		{"session shell in desk sh1", "session shell in desk sh1", ""},
		{"session claude", "", "workspace is required"},
		{"cloud shell", "", "start with alice, oneshot or session"},
		{"oneshot vim", "", "agent must be claude, codex or shell"},
		{"oneshot shell at desk", "", "want"},
	}
	for _, tc := range targets {
		got, err := ParseTargetText(tc.in)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.out, TargetText(got), tc.in)
	}
}
