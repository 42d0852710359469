package tea

import (
	"strings"
	"sync"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
)

func TestTypedText(t *testing.T) {
	for _, c := range []struct {
		in   string
		text bool
	}{
		{"a", true}, {"ls -la", true}, {"~!@#$%^&*()_+{}|:\"<>?", true}, {" ", true},
		{"é", true}, {"日本語", true}, {"👍🏽", true}, {"\u00a0", true},
		{"\r", true}, {"ls\r", true}, {"\t", true}, {"\x7f", true}, {"ab\x7f\x7fc", true},
		{"", false}, {"\n", false}, {"\x08", false}, {"\x11", false},
		{"\x1b", false}, {"a\x1b[A", false}, {"\x03", false}, {"\x00", false},
		{"\xc3", false},         // a character cut short
		{"\xc2\x9b", false},     // C1 CSI as UTF-8
		{"\xff", false},         // not UTF-8
		{"a\xe6\x97", false},    // cut in the middle
		{"\xed\xa0\x80", false}, // a surrogate
	} {
		if got := typedText([]byte(c.in)); got != c.text {
			t.Errorf("typedText(%q) = %v", c.in, got)
		}
	}
}

func TestSeqScanEndsBetweenSequences(t *testing.T) {
	for _, c := range []struct {
		in     string
		ground bool
	}{
		{"abc", true}, {"\x1b[A", true}, {"\x1b[1;5A", true}, {"\x1bOA", true}, {"\x1ba", true},
		{"\x1b]11;rgb:0000/0000/0000\x1b\\", true}, {"\x1b]11;rgb:0/0/0\a", true}, {"\x1bP>|tmux\x1b\\", true},
		{"\x1b[200~pasted\x1b[201~", true}, {"\x1b\x1b", false}, {"\x1b", false}, {"\x1b[", false},
		{"\x1b[1;", false}, {"\x1bO", false}, {"\x1b]11;rgb", false}, {"\x1b]0;t\x1b", false},
		{"\x1b[1;\x1b[B", true}, // a sequence cut by another
	} {
		var s seqScan
		s.scan([]byte(c.in))
		if (s == seqGround) != c.ground {
			t.Errorf("%q: ends in state %d", c.in, s)
		}
	}
}

// TestMarkersAreReadBackInOrder: the parser decodes a marker after the
// events of what precedes it, as an APC the event loop takes; a marker of
// another reader's nonce, or anything else, is input like any other.
func TestMarkersAreReadBackInOrder(t *testing.T) {
	ip := newInputPass(nil)
	other := newInputPass(nil)
	other.nonce = ip.nonce + "x"
	in := "ab" + ip.marker(7) + "\x1b[A" + other.marker(8) + ip.marker(9)
	var dec uv.EventDecoder
	var seen []string
	for b := []byte(in); len(b) > 0; {
		n, ev := dec.Decode(b)
		if n == 0 {
			t.Fatalf("the parser stopped at %q", b)
		}
		b = b[n:]
		if ip.reach(ev) {
			seen = append(seen, "mark")
			continue
		}
		if apc, ok := ev.(uv.UnknownApcEvent); ok {
			seen = append(seen, "apc "+string(apc))
			continue
		}
		seen = append(seen, (&Program{}).translateInputEvent(ev).(interface{ String() string }).String())
	}
	want := []string{"a", "b", "mark", "up", "apc " + other.marker(8), "mark"}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Fatalf("decoded %q, want %q", seen, want)
	}
	if got := ip.reached.Load(); got != 9 {
		t.Fatalf("reached %d, want 9", got)
	}
}

// sinkLog is a TextSink that keeps what it took.
type sinkLog struct {
	mu    sync.Mutex
	taken []string
}

func (s *sinkLog) TakeText(b []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.taken = append(s.taken, string(b))
	return true
}

// TestEscReaderPassesOnlyWhatNothingCanPrecede follows one reader read by
// read: which reads the sink takes, and what the parser gets (markers
// included) for the others.
func TestEscReaderPassesOnlyWhatNothingCanPrecede(t *testing.T) {
	src := newChunkReader()
	ip := newInputPass(nil)
	sink := &sinkLog{}
	r := newEscReader(src, time.Minute, uv.EventDecoder{}).withPass(ip)
	ip.sink.Store(&sinkRef{sink})
	buf := make([]byte, 4096)
	// parse reads what the parser gets for the next chunk(s), until the
	// reader hands it something.
	parse := func(chunks ...string) string {
		t.Helper()
		for _, c := range chunks {
			src.chunks <- c
		}
		n, err := r.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		return string(buf[:n])
	}
	reach := func() { ip.reached.Store(r.handed) }
	taken := func() []string { sink.mu.Lock(); defer sink.mu.Unlock(); return append([]string(nil), sink.taken...) }

	// A new reader is unsure of the parser: its first read goes there,
	// marked.
	if got := parse("a"); got != "a"+ip.marker(r.handed) {
		t.Fatalf("first read: %q", got)
	}
	// Text read before the marker is reached waits its turn in the parser.
	if got := parse("b"); got != "b"+ip.marker(r.handed) {
		t.Fatalf("text behind an unreached marker: %q", got)
	}
	reach()
	// Now text goes to the sink (Enter, Tab and Backspace are typed
	// text too); the next key that is not text to the parser.
	if got := parse("cd", "é", "\r", "\x03"); got != "\x03"+ip.marker(r.handed) {
		t.Fatalf("ctrl+c: %q", got)
	}
	if got := taken(); strings.Join(got, "|") != "cd|é|\r" {
		t.Fatalf("the sink took %q", got)
	}
	reach()
	// A read that ends inside a sequence has no marker, and the text
	// after it is the rest of the sequence.
	if got := parse("\x1b[1;"); got != "\x1b[1;" {
		t.Fatalf("a sequence cut short: %q", got)
	}
	if got := parse("5A"); got != "5A"+ip.marker(r.handed) {
		t.Fatalf("its rest: %q", got)
	}
	reach()
	// An ESC that ends a read is held: the text after it is alt+text.
	src.chunks <- "\x1b"
	if got := parse("x"); got != r.alt['x']+ip.marker(r.handed) {
		t.Fatalf("ESC then x: %q", got)
	}
	reach()
	// Inside a paste nothing is passed and nothing marked until it ends.
	if got := parse("\x1b[200~pas"); got != "\x1b[200~pas" {
		t.Fatalf("a paste's start: %q", got)
	}
	if got := parse("ted"); got != "ted" {
		t.Fatalf("inside a paste: %q", got)
	}
	if got := parse("\x1b[201~"); got != "\x1b[201~"+ip.marker(r.handed) {
		t.Fatalf("a paste's end: %q", got)
	}
	reach()
	// Without a sink, nothing is passed and nothing marked.
	ip.sink.Store(nil)
	if got := parse("z"); got != "z" {
		t.Fatalf("no sink: %q", got)
	}
	if got := taken(); len(got) != 3 {
		t.Fatalf("the sink took %q", got)
	}
	src.Cancel()
}
