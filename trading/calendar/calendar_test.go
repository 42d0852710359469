package calendar

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestNYSESessions(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	at := func(y int, m time.Month, d, h, min int) time.Time { return time.Date(y, m, d, h, min, 0, 0, ny) }
	cal := NYSE()
	cases := []struct {
		name string
		from time.Time
		want []Session
	}{
		{"Thanksgiving week 2026: Thursday shut, Friday early, weekend skipped", at(2026, 11, 25, 20, 0), []Session{
			{at(2026, 11, 25, 9, 30), at(2026, 11, 25, 16, 0), false},
			{at(2026, 11, 27, 9, 30), at(2026, 11, 27, 13, 0), true},
			{at(2026, 11, 30, 9, 30), at(2026, 11, 30, 16, 0), false},
		}},
		{"July 4 2026 on a Saturday: observed Friday the 3rd", at(2026, 7, 2, 12, 0), []Session{
			{at(2026, 7, 2, 9, 30), at(2026, 7, 2, 16, 0), false},
			{at(2026, 7, 6, 9, 30), at(2026, 7, 6, 16, 0), false},
		}},
		{"Christmas 2027 on a Saturday: observed Friday the 24th; New Year 2028 on a Saturday: not observed", at(2027, 12, 23, 0, 0), []Session{
			{at(2027, 12, 23, 9, 30), at(2027, 12, 23, 16, 0), false},
			{at(2027, 12, 27, 9, 30), at(2027, 12, 27, 16, 0), false},
		}},
		{"Good Friday 2027", at(2027, 3, 25, 17, 0), []Session{
			{at(2027, 3, 25, 9, 30), at(2027, 3, 25, 16, 0), false},
			{at(2027, 3, 29, 9, 30), at(2027, 3, 29, 16, 0), false},
		}},
		{"Christmas Eve 2026 early close, Christmas shut", at(2026, 12, 24, 0, 0), []Session{
			{at(2026, 12, 24, 9, 30), at(2026, 12, 24, 13, 0), true},
			{at(2026, 12, 28, 9, 30), at(2026, 12, 28, 16, 0), false},
		}},
	}
	for _, tc := range cases {
		got := cal.SessionsFrom(tc.from, len(tc.want))
		require.Len(t, got, len(tc.want), tc.name)
		for i := range got {
			require.True(t, tc.want[i].Open.Equal(got[i].Open), "%s: open %d: %v", tc.name, i, got[i].Open)
			require.True(t, tc.want[i].Close.Equal(got[i].Close), "%s: close %d: %v", tc.name, i, got[i].Close)
			require.Equal(t, tc.want[i].Early, got[i].Early, tc.name)
		}
	}
	require.True(t, cal.IsOpen(at(2026, 11, 27, 12, 59)))
	require.False(t, cal.IsOpen(at(2026, 11, 27, 13, 0)), "early close")
	require.False(t, cal.IsOpen(at(2026, 11, 26, 11, 0)), "Thanksgiving")
	require.False(t, cal.IsOpen(at(2026, 11, 28, 11, 0)), "Saturday")
	name, ok := cal.Holiday(at(2027, 6, 18, 12, 0))
	require.True(t, ok)
	require.Equal(t, "Juneteenth (observed)", name)
	require.True(t, cal.Known(2027))
	require.False(t, cal.Known(2028))
}
