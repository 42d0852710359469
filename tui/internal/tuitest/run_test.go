package tuitest

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"
)

type testMsg int

// slowHelper parks on a timer outside the command's own body.
func slowHelper(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	<-t.C
}

func TestWorkerClassifiesCommandsWithoutDeadlines(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		cmd    func(ch chan int) tea.Cmd
		feed   bool // the test sends on ch after the first settle
		wantOK bool
		want   tea.Msg
	}{
		{"quick", func(chan int) tea.Cmd { return func() tea.Msg { return testMsg(1) } }, false, true, testMsg(1)},
		// Slower than the old 100 ms step deadline: still part of the step.
		{"sleeps", func(chan int) tea.Cmd {
			return func() tea.Msg { time.Sleep(250 * time.Millisecond); return testMsg(2) }
		}, false, true, testMsg(2)},
		{"timer in a helper", func(chan int) tea.Cmd {
			return func() tea.Msg { slowHelper(150 * time.Millisecond); return testMsg(3) }
		}, false, true, testMsg(3)},
		// Blocked on a source only the test feeds: pending, then delivered.
		{"wait on source", func(ch chan int) tea.Cmd {
			return func() tea.Msg { return testMsg(<-ch) }
		}, true, true, testMsg(4)},
		{"select on source", func(ch chan int) tea.Cmd {
			return func() tea.Msg {
				select {
				case v := <-ch:
					return testMsg(v)
				}
			}
		}, true, true, testMsg(4)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ch := make(chan int)
			cmd := tc.cmd(ch)
			w := start(cmd, cmdName(cmd))
			msg, ok, hung := w.settle()
			require.False(t, hung)
			if tc.feed {
				require.False(t, ok, "blocked on its source: pending")
				ch <- 4
				msg, ok, hung = w.settle()
				require.False(t, hung)
			}
			require.Equal(t, tc.wantOK, ok)
			require.Equal(t, tc.want, msg)
		})
	}
}

func TestTimerCommandsAreRecognised(t *testing.T) {
	t.Parallel()
	f := func(time.Time) tea.Msg { return testMsg(0) }
	require.True(t, isTimer(cmdName(tea.Tick(time.Hour, f))))
	require.True(t, isTimer(cmdName(tea.Every(time.Hour, f))))
	c := cursor.New()
	c.Focus()
	blink := c.Blink()
	require.NotNil(t, blink, "the default cursor blinks")
	require.True(t, isTimer(cmdName(blink)))
	require.False(t, isTimer(cmdName(func() tea.Msg { return nil })))
}
