package agentstate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScannerExtractsSignals(t *testing.T) {
	long := "\x1b]0;" + strings.Repeat("x", maxOSC+10) + "\a"
	cases := []struct {
		name   string
		chunks []string
		want   []Signal
	}{
		{"title with BEL", []string{"\x1b]0;⠂ Claude Code\a"}, []Signal{{Kind: SignalTitle, Text: "⠂ Claude Code"}}},
		{"title 2 with ST", []string{"\x1b]2;hello\x1b\\"}, []Signal{{Kind: SignalTitle, Text: "hello"}}},
		{"icon name ignored", []string{"\x1b]1;icon\a"}, nil},
		{"split across batches", []string{"ab\x1b", "]0;sp", "lit\x1b", "\\cd"}, []Signal{{Kind: SignalTitle, Text: "split"}}},
		{"bell", []string{"done\a"}, []Signal{{Kind: SignalBell}}},
		{"bell ending an OSC is not a bell", []string{"\x1b]0;t\a\a"}, []Signal{{Kind: SignalTitle, Text: "t"}, {Kind: SignalBell}}},
		{"progress set", []string{"\x1b]9;4;1;42\a"}, []Signal{{Kind: SignalProgress, Progress: ProgressNormal, Value: 42}}},
		{"progress busy", []string{"\x1b]9;4;3;0\x1b\\"}, []Signal{{Kind: SignalProgress, Progress: ProgressBusy, Value: 0}}},
		{"progress clear", []string{"\x1b]9;4;0\a"}, []Signal{{Kind: SignalProgress, Progress: ProgressNone, Value: -1}}},
		{"progress error", []string{"\x1b]9;4;2;100\a"}, []Signal{{Kind: SignalProgress, Progress: ProgressError, Value: 100}}},
		{"progress garbage clears", []string{"\x1b]9;4;9;x\a"}, []Signal{{Kind: SignalProgress, Progress: ProgressNone, Value: -1}}},
		{"OSC 9 notification", []string{"\x1b]9;Claude needs your permission\a"}, []Signal{{Kind: SignalNotify, Text: "Claude needs your permission"}}},
		{"OSC 777 notification", []string{"\x1b]777;notify;Codex;Turn complete\x1b\\"}, []Signal{{Kind: SignalNotify, Text: "Codex Turn complete"}}},
		{"OSC 99 notification", []string{"\x1b]99;i=1:d=0;Build finished\a"}, []Signal{{Kind: SignalNotify, Text: "Build finished"}}},
		{"0x9d inside UTF-8 is text", []string{"❯ ready\a"}, []Signal{{Kind: SignalBell}}},
		{"DCS with BEL inside skipped", []string{"\x1bP+q\a544e\x1b\\\a"}, []Signal{{Kind: SignalBell}}},
		{"APC skipped", []string{"\x1b_Gf=100;AAAA\x1b\\"}, nil},
		{"CSI untouched", []string{"\x1b[31mred\x1b[0m\x1b[?2004h"}, nil},
		{"ESC inside OSC aborts it", []string{"\x1b]0;bro\x1b]2;ok\a"}, []Signal{{Kind: SignalTitle, Text: "ok"}}},
		{"CAN aborts OSC", []string{"\x1b]0;x\x18\a"}, []Signal{{Kind: SignalBell}}},
		{"overlong OSC dropped", []string{long, "\x1b]0;short\a"}, []Signal{{Kind: SignalTitle, Text: "short"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s Scanner
			var got []Signal
			for _, ch := range c.chunks {
				got = s.Feed([]byte(ch), got)
			}
			assert.Equal(t, c.want, got)
		})
	}
}

// Feeding byte by byte must find the same signals as one batch.
func TestScannerByteAtATime(t *testing.T) {
	in := []byte("x\x1b]0;⠐ Claude Code\a\x1b]9;4;1;10\x1b\\y\a\x1b]777;notify;a;b\a")
	var whole Scanner
	want := whole.Feed(in, nil)
	var s Scanner
	var got []Signal
	for i := range in {
		got = s.Feed(in[i:i+1], got)
	}
	assert.Equal(t, want, got)
	assert.Len(t, got, 4)
}

func BenchmarkScanner(b *testing.B) {
	chunk := []byte(strings.Repeat("\x1b[38;5;174mhello world ❯\x1b[0m\r\n", 1000) + "\x1b]0;⠂ Claude Code\a")
	var s Scanner
	var out []Signal
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		out = s.Feed(chunk, out[:0])
	}
}

// BenchmarkTrackerOutput is the per-batch cost the pty reader pays for
// state tracking: scan plus resolve on a claude-like stream.
func BenchmarkTrackerOutput(b *testing.B) {
	rs, err := LoadRules("")
	if err != nil {
		b.Fatal(err)
	}
	tr := NewTracker(rs.For("claude"), nil, nil)
	chunk := []byte(strings.Repeat("\x1b[38;5;174mthinking about it ❯\x1b[0m\r\n", 200) + "\x1b]0;⠂ Claude Code\a")
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		tr.Output(chunk)
	}
}
