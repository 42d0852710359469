package workspace

import (
	"bytes"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestTerminalAnswersQueriesWithoutBlocking(t *testing.T) {
	t.Parallel()
	term := NewTerminal(40, 10, slog.Default())
	defer term.Close()
	changes, unsubscribe := term.Subscribe()
	defer unsubscribe()
	out := &syncBuf{}
	term.SetOutput(out)
	done := make(chan struct{})
	go func() {
		// A device-attributes query makes the emulator reply; without the
		// reply goroutine this Feed would block forever.
		term.Feed([]byte("\x1b[31mred\x1b[0m text\x1b[c"))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Feed blocked on a terminal query")
	}
	require.Eventually(t, func() bool { return strings.HasPrefix(out.String(), "\x1b[?") }, 30*time.Second, tick)
	require.Contains(t, term.String(), "red text")
	require.Contains(t, term.Render(), "\x1b[31m")
	select {
	case <-changes:
	default:
		t.Fatal("Feed must nudge its subscribers")
	}

	term.Feed([]byte("\x1b[?25l\x1b]2;my title\x07"))
	_, _, visible := term.Cursor()
	require.False(t, visible)
	require.Equal(t, "my title", term.Title())
	term.Feed([]byte("\x1b[?1049h"))
	require.True(t, term.IsAltScreen())

	term.Resize(5, 1)
	cols, rows := term.Size()
	require.Equal(t, []int{20, 5}, []int{cols, rows}, "size is clamped")
}

func TestTerminalCloseIsIdempotentAndStopsInput(t *testing.T) {
	t.Parallel()
	term := NewTerminal(80, 24, slog.Default())
	term.Close()
	term.Close()
	term.Feed([]byte("ignored"))
	term.SendKey(KeyPress{Code: 'a', Text: "a"})
	term.Paste("x")
	require.NotContains(t, term.String(), "ignored")
}

func TestReplayBufferKeepsTheTail(t *testing.T) {
	t.Parallel()
	r := newReplayBuffer(8)
	r.Write([]byte("abc"))
	require.Equal(t, "abc", string(r.Bytes()))
	r.Write([]byte("defgh"))
	require.Equal(t, "abcdefgh", string(r.Bytes()))
	r.Write([]byte("ij"))
	require.Equal(t, "cdefghij", string(r.Bytes()))
	r.Write([]byte("klmnopqrstuv"))
	require.Equal(t, "opqrstuv", string(r.Bytes()))
	r.Write([]byte("w"))
	require.Equal(t, "pqrstuvw", string(r.Bytes()))
	require.EqualValues(t, 23, r.Total())
}

// The ring's storage grows with what was written: a quiet session holds a
// few KiB, not the whole ring. Whatever the writes, it keeps the last size
// bytes of everything written (checked against the concatenation).
func TestReplayBufferGrowsWithOutput(t *testing.T) {
	t.Parallel()
	r := newReplayBuffer(DefaultReplayBytes)
	r.Write([]byte("$ "))
	require.LessOrEqual(t, cap(r.buf), replayMinGrow)
	for _, size := range []int{8, 5000, 3 * replayMinGrow} {
		rng := rand.New(rand.NewPCG(uint64(size), 1))
		r := newReplayBuffer(size)
		var all []byte
		for i := 0; i < 400; i++ {
			p := make([]byte, rng.IntN(size/2+2))
			for j := range p {
				p[j] = byte('a' + rng.IntN(26))
			}
			r.Write(p)
			all = append(all, p...)
			want := all[max(0, len(all)-size):]
			require.Equal(t, string(want), string(r.Bytes()), "size %d after write %d", size, i)
			require.LessOrEqual(t, cap(r.buf), size)
		}
	}
}

// A program asking for the terminal's colours (OSC 10/11/12 "?": vim's
// 'background' detection, codex's palette) gets no answer while it has
// set none, as from tmux 3.3a with default colours: the emulator answered
// black on white, so vim chose background=dark and codex its dark palette
// where tmux left them on their defaults. Colours the program set are
// reported back.
func TestTerminalLeavesDefaultColourQueriesUnanswered(t *testing.T) {
	t.Parallel()
	term := NewTerminal(40, 10, slog.Default())
	defer term.Close()
	out := &syncBuf{}
	term.SetOutput(out)
	// The device-attributes reply comes after any colour reply.
	term.Feed([]byte("\x1b]11;?\x07\x1b]10;?\x07\x1b]12;?\x07\x1b[c"))
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "\x1b[?") }, 30*time.Second, tick)
	require.NotContains(t, out.String(), "\x1b]1", "no colour reported while none is set")

	term.Feed([]byte("\x1b]11;rgb:1010/2020/3030\x07\x1b]11;?\x07\x1b[c"))
	require.Eventually(t, func() bool { return strings.Count(out.String(), "\x1b[?") == 2 }, 30*time.Second, tick)
	require.Contains(t, out.String(), "\x1b]11;rgb:1010/2020/3030", "a colour the program set is reported")
}

// A control string keeps its UTF-8 text: a continuation byte in 0x80–0x9F
// is not a C1 control there. tmux 3.3a shows claude's title "✳ Claude
// Code" and an emoji in it as sent (#{pane_title}); the pane showed "⿳"
// and lost hyperlink addresses with emoji.
func TestControlStringsKeepUTF8(t *testing.T) {
	t.Parallel()
	term := NewTerminal(40, 5, slog.New(slog.DiscardHandler))
	defer term.Close()
	term.Feed([]byte("\x1b]2;✳ Claude 👍🏽 Code\x1b\\\x1b]8;;http://x/👍🏽?q=é\x07L\x1b]8;;\x07 after"))
	require.Equal(t, "✳ Claude 👍🏽 Code", term.Title())
	term.mu.Lock()
	defer term.mu.Unlock()
	require.Equal(t, "http://x/👍🏽?q=é", term.emu.CellAt(0, 0).Link.URL)
	require.Equal(t, "L after", strings.TrimSpace(term.emu.String()))
}

// Every subscriber hears every change (two clients showing one session:
// each used to get every other echo), and a cancelled subscription wakes
// its waiting reader once, then hears nothing more.
func TestSubscribersEachHearEveryChange(t *testing.T) {
	t.Parallel()
	term := NewTerminal(20, 5, slog.New(slog.DiscardHandler))
	defer term.Close()
	a, cancelA := term.Subscribe()
	b, cancelB := term.Subscribe()
	defer cancelB()
	for i := 0; i < 3; i++ {
		term.Feed([]byte("x"))
		for _, ch := range []<-chan struct{}{a, b} {
			select {
			case <-ch:
			default:
				t.Fatalf("change %d: a subscriber heard nothing", i)
			}
		}
	}
	cancelA()
	select {
	case <-a:
	default:
		t.Fatal("cancel wakes the reader once")
	}
	term.Feed([]byte("y"))
	<-b
	select {
	case <-a:
		t.Fatal("a cancelled subscription hears no more")
	default:
	}
}
