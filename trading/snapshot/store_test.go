package snapshot

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)

func snap(i int) Snapshot {
	return Snapshot{AccountID: "a", Timestamp: t0.Add(time.Duration(i) * time.Minute), Trigger: Scheduled,
		Account: Account{NetLiquidation: decimal.NewFromInt(int64(100000 + i))}}
}

func TestChunksListAndCurve(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "snapshots")
	s, err := Open(dir)
	require.NoError(t, err)
	for i := 0; i < 120; i++ {
		require.NoError(t, s.Append(snap(i)))
	}
	assert.Equal(t, 120, s.Count())
	for _, f := range []string{"index.json", "chunk-0001.jsonl", "chunk-0002.jsonl", "chunk-0003.jsonl"} {
		assert.FileExists(t, filepath.Join(dir, f))
	}
	cases := []struct {
		since       time.Time
		limit       int
		n           int
		first, last int
	}{
		{time.Time{}, 0, 120, 0, 119},
		{t0.Add(100 * time.Minute), 0, 20, 100, 119},
		{time.Time{}, 5, 5, 115, 119},
		{t0.Add(200 * time.Minute), 0, 0, 0, 0},
	}
	for _, tc := range cases {
		got, err := s.List(tc.since, tc.limit)
		require.NoError(t, err)
		require.Len(t, got, tc.n)
		if tc.n > 0 {
			assert.Equal(t, snap(tc.first).Timestamp, got[0].Timestamp)
			assert.Equal(t, snap(tc.last).Timestamp, got[len(got)-1].Timestamp)
		}
	}
	curve, err := s.EquityCurve(t0.Add(118 * time.Minute))
	require.NoError(t, err)
	require.Len(t, curve, 2)
	assert.True(t, curve[1].Equity.Equal(decimal.NewFromInt(100119)))
}

func TestTornLineAndStaleIndexRecover(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	require.NoError(t, err)
	for i := 0; i < 3; i++ {
		require.NoError(t, s.Append(snap(i)))
	}
	idx, err := os.ReadFile(filepath.Join(dir, "index.json"))
	require.NoError(t, err)
	require.NoError(t, s.Append(snap(3)))
	// Crash: index from before the 4th append, plus a torn 5th line.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.json"), idx, 0o600))
	f, err := os.OpenFile(filepath.Join(dir, "chunk-0001.jsonl"), os.O_APPEND|os.O_WRONLY, 0o600)
	require.NoError(t, err)
	_, _ = f.WriteString(`{"accountId":"a","timest`)
	require.NoError(t, f.Close())

	s2, err := Open(dir)
	require.NoError(t, err)
	assert.Equal(t, 4, s2.Count(), "recounted from the chunk")
	got, err := s2.List(time.Time{}, 0)
	require.NoError(t, err)
	assert.Len(t, got, 4)
	require.NoError(t, s2.Append(snap(4)))
	got, err = s2.List(time.Time{}, 0)
	require.NoError(t, err)
	assert.Len(t, got, 5, "the append after recovery is readable")
}
