package workspace

import (
	"log/slog"
	"testing"

	"github.com/alice-trading/alice/workspace/agentstate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTailTextReadsOnlyTheBottomRowsOfAChangedScreen checks what the
// agent-state loop reads: the bottom n non-blank rows as ScreenText would
// show them, and nothing when the screen has not changed since.
func TestTailTextReadsOnlyTheBottomRowsOfAChangedScreen(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, feed string
		n          int
		want       []string
	}{
		{"bottom rows, blanks skipped", "one\r\n\r\ntwo  \r\nthree\r\n\r\n", 2, []string{"two", "three"}},
		{"fewer rows than asked", "only\r\n", 5, []string{"only"}},
		{"inner blanks kept", "a   b\r\n", 1, []string{"a   b"}},
		{"wide characters", "日本 x\r\n", 1, []string{"日本 x"}},
		{"coloured blanks trimmed", "\x1b[41mred\x1b[m  \r\n", 1, []string{"red"}},
		{"empty screen", "", 3, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			term := NewTerminal(30, 8, slog.Default())
			defer term.Close()
			term.Feed([]byte(c.feed))
			got, gen, changed := term.tailText(c.n, ^uint64(0))
			require.True(t, changed)
			assert.Equal(t, c.want, got)
			// The same lines as the whole-screen reader, bottom n non-blank.
			var all []string
			for _, l := range (&Session{term: term}).ScreenText(-1) {
				if l != "" {
					all = append(all, l)
				}
			}
			assert.Equal(t, c.want, nilIfEmpty(all[max(0, len(all)-c.n):]))
			_, _, changed = term.tailText(c.n, gen)
			assert.False(t, changed, "unchanged screen read again")
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestScreenRulesOnlyForAgentsThatHaveThem: a shell session has no screen
// rules, so its output never marks it for the loop (no wake-ups, no
// screen reads); a claude session's batches do, and a look at an
// unchanged screen reads nothing.
func TestScreenRulesOnlyForAgentsThatHaveThem(t *testing.T) {
	t.Parallel()
	// A plain shell as "claude": claude's own arguments go to -c's
	// positional parameters (a bare /bin/sh refused them and crashed).
	m := newTestManager(t, t.TempDir(), func(o *Options) { o.ClaudeCommand = []string{"/bin/sh", "-c", "exec /bin/sh", "claude"} })
	w := createWS(t, m, "look", "chat")
	sh, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	cl, err := m.StartSession(w.ID, AgentClaude)
	require.NoError(t, err)
	tsh, ok := m.status.get(sh.ID())
	require.True(t, ok)
	tcl, ok := m.status.get(cl.ID())
	require.True(t, ok)
	assert.Zero(t, tsh.lines)
	assert.Nil(t, sh.fedHook.Load(), "a shell's output must not wake the screen loop")
	assert.Equal(t, m.status.rules.For("claude").ScreenLines(), tcl.lines)
	require.NotNil(t, cl.fedHook.Load())

	require.NoError(t, cl.Input([]byte("echo 'Do you want to proceed?'\r")))
	waitAgentState(t, m, cl, agentstate.NeedsYou)
	// The loop looks after the last batch the emulator took in (the prompt
	// after the output), with no timer of the test's own.
	gen := func() uint64 { cl.term.mu.Lock(); defer cl.term.mu.Unlock(); return cl.term.gen }
	require.Eventually(t, func() bool { return tcl.seen.Load() == gen() }, waitFor, tick,
		"the loop never looked at the final screen:\n%s", cl.Screen())
	_, _, changed := cl.term.tailText(tcl.lines, tcl.seen.Load())
	assert.False(t, changed, "an unchanged screen is not read again")
}
