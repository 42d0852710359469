package agentstate

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustRules(t *testing.T, agent string) *Rules {
	t.Helper()
	rs, err := LoadRules("")
	require.NoError(t, err)
	return rs.For(agent)
}

// replay feeds a recorded pty stream in small chunks through both the
// tracker and a real emulator (for the screen rules), the way a session
// does, and returns every state the tracker passed through.
func replay(t *testing.T, tr *Tracker, data []byte, chunk int) []State {
	t.Helper()
	emu := vt.NewEmulator(100, 30)
	t.Cleanup(func() { _ = emu.InputPipe().(io.Closer).Close() }) // ends the drain below
	go func() {                                                   // drain query replies so emulator writes never block
		buf := make([]byte, 256)
		for {
			if _, err := emu.Read(buf); err != nil {
				return
			}
		}
	}()
	seen := []State{tr.Snapshot().State}
	note := func() {
		if s := tr.Snapshot().State; seen[len(seen)-1] != s {
			seen = append(seen, s)
		}
	}
	for i := 0; i < len(data); i += chunk {
		p := data[i:min(i+chunk, len(data))]
		tr.Output(p)
		_, _ = emu.Write(p)
		note()
		tr.Screen(strings.Split(emu.String(), "\n"))
		note()
	}
	return seen
}

func TestTrackerOnRecordedStreams(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file, agent string
		exit        Lifecycle // applied after the stream, LifeRunning = still running
		final       State
		never       []State
	}{
		// No credentials: claude says it cannot connect and exits 1.
		{"claude-2.1.197-nokey.bin", "claude", LifeRunning, Errored, []State{Working}},
		{"claude-2.1.197-nokey.bin", "claude", LifeCrashed, Errored, []State{Working}},
		// Pre-seeded, at its prompt.
		{"claude-2.1.197-idle.bin", "claude", LifeRunning, Idle, []State{Working, NeedsYou, Errored}},
		// A prompt sent to an unreachable API: the spinner title says working.
		{"claude-2.1.197-retrying.bin", "claude", LifeRunning, Working, []State{NeedsYou, Errored}},
		// codex's sign-in menu waits for a person.
		{"codex-0.169.0-login.bin", "codex", LifeRunning, NeedsYou, []State{Working}},
		// opencode at its home screen: idle; its OSC 99 capability query
		// is not a notification.
		{"opencode-1.18.33-idle.bin", "opencode", LifeRunning, Idle, []State{Working, NeedsYou, Errored}},
		// "say hi" with no reachable provider: working, then retrying
		// ("Cannot connect to API … [retrying attempt #N]") is still working.
		{"opencode-1.18.33-prompt.bin", "opencode", LifeRunning, Working, []State{NeedsYou, Errored}},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.exit.String(), func(t *testing.T) {
			t.Parallel() // CPU-bound replays (seconds each under -race), independent
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			require.NoError(t, err)
			for _, chunk := range []int{13, 256, 4096} {
				tr := NewTracker(mustRules(t, c.agent), nil, nil)
				seen := replay(t, tr, data, chunk)
				if c.exit != LifeRunning {
					tr.Lifecycle(c.exit, "process exited with status 1")
				}
				assert.Equal(t, c.final, tr.Snapshot().State, "chunk %d, passed through %v", chunk, seen)
				for _, n := range c.never {
					assert.NotContains(t, seen, n, "chunk %d", chunk)
				}
			}
		})
	}
}

// A turn that fails after ten retries: working while it retries, errored
// once claude gives up and shows the API error at its idle prompt.
func TestTrackerClaudeAPIErrorRecording(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "claude-2.1.197-apierror.bin"))
	require.NoError(t, err)
	tr := NewTracker(mustRules(t, "claude"), nil, nil)
	seen := replay(t, tr, data, 512)
	assert.Contains(t, seen, Working)
	assert.Equal(t, Errored, tr.Snapshot().State, "passed through %v; screen detail %q", seen, tr.Snapshot().Detail)
}

type step struct {
	out    string    // raw output
	screen string    // screen text (lines separated by \n); "" = no screen step
	life   Lifecycle // -1 = none
	ack    bool
	want   State
}

func out(s string, want State) step    { return step{out: s, life: -1, want: want} }
func screen(s string, want State) step { return step{screen: s, life: -1, want: want} }
func life(l Lifecycle, want State) step {
	return step{life: l, want: want}
}
func ack(want State) step { return step{ack: true, life: -1, want: want} }

func TestTrackerTransitions(t *testing.T) {
	const spin1, spin2, idle = "\x1b]0;⠂ Claude Code\a", "\x1b]0;⠐ Claude Code\a", "\x1b]0;✳ Claude Code\a"
	cases := []struct {
		name  string
		agent string
		steps []step
	}{
		{"claude turn: idle, working, done, acknowledged", "claude", []step{
			out(idle, Idle), out(spin1, Working), out(spin2, Working), out(idle, Done), ack(Idle)}},
		{"bell asks for a person until acknowledged", "claude", []step{
			out(idle, Idle), out("\a", NeedsYou), out("more text", NeedsYou), ack(Idle)}},
		{"new work answers a bell", "claude", []step{
			out(idle, Idle), out("\a", NeedsYou), out(spin1, Working)}},
		{"spinner continuing does not answer a bell", "claude", []step{
			out(spin1, Working), out("\a", NeedsYou), out(spin2, NeedsYou)}},
		{"OSC 9 notification", "codex", []step{
			out("\x1b]9;Approval requested\a", NeedsYou), ack(Idle)}},
		{"OSC 777 notification", "shell", []step{
			out("\x1b]777;notify;build;finished\a", NeedsYou)}},
		{"progress drives working and done", "shell", []step{
			out("\x1b]9;4;3;0\a", Working), out("\x1b]9;4;1;50\a", Working), out("\x1b]9;4;0\a", Done), ack(Idle)}},
		{"progress error", "shell", []step{
			out("\x1b]9;4;1;50\a", Working), out("\x1b]9;4;2;50\a", Errored), out("\x1b]9;4;0\a", Done)}},
		{"permission dialog on screen beats the spinner", "claude", []step{
			out(spin1, Working), screen("Bash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. No", NeedsYou),
			screen("❯ \n  esc to interrupt", Working)}},
		{"codex works by screen only", "codex", []step{
			screen("› explain this repo\n\n• Working (3s • Esc to interrupt)", Working), screen("› ", Done)}},
		{"API error on screen", "claude", []step{
			out(idle, Idle), screen("⎿ API Error: Connection error.\n\n❯ ", Errored)}},
		{"screen rules only look at the bottom lines", "claude", []step{
			screen("esc to interrupt\n"+strings.Repeat("line\n", 10), Idle)}},
		{"crash and respawn", "claude", []step{
			out(spin1, Working), life(LifeCrashed, Errored), life(LifeRunning, Idle), out(idle, Idle)}},
		{"clean exit", "shell", []step{
			out("\a", NeedsYou), life(LifeExited, Exited)}},
		{"bell ignored where rules say so", "nobell", []step{out("\a", Idle)}},
	}
	rs, err := LoadRules("")
	require.NoError(t, err)
	rs.byAgent["nobell"], err = ParseRules("nobell", "test", []byte(`{"default":"idle"}`))
	require.NoError(t, err)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var changes []Change
			clock := time.Unix(0, 0)
			tr := NewTracker(rs.For(c.agent), func() time.Time { clock = clock.Add(time.Second); return clock },
				func(ch Change) { changes = append(changes, ch) })
			prev := tr.Snapshot().State
			wantChanges := 0
			for i, s := range c.steps {
				switch {
				case s.ack:
					tr.Acknowledge()
				case s.life >= 0:
					tr.Lifecycle(s.life, "why")
				case s.screen != "":
					tr.Screen(strings.Split(s.screen, "\n"))
				default:
					tr.Output([]byte(s.out))
				}
				got := tr.Snapshot()
				require.Equal(t, s.want, got.State, "step %d: %+v (detail %q)", i, s, got.Detail)
				if got.State != prev {
					wantChanges++
				}
				prev = got.State
			}
			assert.Len(t, changes, wantChanges, "one callback per transition")
			for _, ch := range changes {
				assert.NotEqual(t, ch.From.State, ch.To.State)
				assert.True(t, ch.To.Since.After(ch.From.Since) || ch.From.Since.IsZero())
			}
		})
	}
}

func (l Lifecycle) String() string {
	return [...]string{"running", "crashed", "exited"}[l]
}

func TestSnapshotCarriesTitleProgressAndDetail(t *testing.T) {
	tr := NewTracker(mustRules(t, "shell"), nil, nil)
	tr.Output([]byte("\x1b]2;make test\a\x1b]9;4;1;37\a"))
	s := tr.Snapshot()
	assert.Equal(t, Working, s.State)
	assert.Equal(t, "make test", s.Title)
	assert.Equal(t, 37, s.Progress)
	tr.Output([]byte("\x1b]9;tests passed\a"))
	s = tr.Snapshot()
	assert.Equal(t, NeedsYou, s.State)
	assert.Equal(t, "tests passed", s.Detail)
}
