package tea

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/muesli/cancelreader"
)

// chunkReader hands out one chunk per Read, in order, then blocks until
// more come or it is canceled; closing chunks ends it with io.EOF.
type chunkReader struct {
	chunks   chan string
	canceled chan struct{}
}

func newChunkReader(chunks ...string) *chunkReader {
	r := &chunkReader{chunks: make(chan string, 64), canceled: make(chan struct{})}
	for _, c := range chunks {
		r.chunks <- c
	}
	return r
}

func (r *chunkReader) Read(p []byte) (int, error) {
	select {
	case c, ok := <-r.chunks:
		if !ok {
			return 0, io.EOF
		}
		return copy(p, c), nil
	case <-r.canceled:
		return 0, cancelreader.ErrCanceled
	}
}

func (r *chunkReader) Cancel() bool { close(r.canceled); return true }
func (r *chunkReader) Close() error { return nil }

// readAll reads r until an error, small reads at a time.
func readAll(t *testing.T, r io.Reader) (string, error) {
	t.Helper()
	var out []byte
	buf := make([]byte, 3)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return string(out), err
		}
	}
}

const esc = escapeKey

// TestEscReaderSplitsEscapeRuns: each chunk is one read of the terminal.
// The next read always comes at once here (the hold is long), so an ESC
// that ends a read is decided by the next one.
func TestEscReaderSplitsEscapeRuns(t *testing.T) {
	for _, c := range []struct {
		name   string
		chunks []string
		want   string
	}{
		{"lone Escape", []string{"\x1b"}, esc},
		{"Escape Escape", []string{"\x1b\x1b"}, esc + esc},
		{"three Escapes", []string{"\x1b\x1b\x1b"}, esc + esc + esc},
		{"Escape then alt+a", []string{"\x1b\x1ba"}, esc + "\x1b[97;3u"},
		{"Escape then Up", []string{"\x1b\x1b[A"}, esc + "\x1b[A"},
		{"Escape then alt+Up (SS3)", []string{"\x1b\x1bOA"}, esc + "\x1bOA"},
		{"alt+a in kitty's form", []string{"\x1ba"}, "\x1b[97;3u"},
		{"alt+A in kitty's form", []string{"\x1bA"}, "\x1b[97:65;4u"},
		{"alt+1 then text", []string{"\x1b1ls"}, "\x1b[49;3uls"},
		{"ctrl+alt+a", []string{"\x1b\x01"}, "\x1b[97;7u"},
		{"alt+[ ending a read, nothing after it", []string{"\x1b["}, "\x1b[91;3u"},
		{"alt+O ending a read, nothing after it", []string{"\x1bO"}, "\x1b[111;4u"},
		{"ESC [ ending a read, the rest of Up in the next", []string{"\x1b[", "A"}, "\x1b[A"},
		{"ESC O ending a read, the rest of F1 in the next", []string{"a\x1bO", "P"}, "a\x1bOP"},
		{"alt+[ then text in the same read goes to the parser", []string{"\x1b[x"}, "\x1b[x"},
		{"Up is left alone", []string{"\x1b[A"}, "\x1b[A"},
		{"text then Escape", []string{"ix\x1b"}, "ix" + esc},
		{"Escape, then Escape in the next read", []string{"\x1b", "\x1b"}, esc + esc},
		{"Up split after its ESC", []string{"\x1b", "[A"}, "\x1b[A"},
		{"alt+b split after its ESC", []string{"a\x1b", "b"}, "a\x1b[98;3u"},
		{"Escape Escape split", []string{"\x1b", "\x1b[A"}, esc + "\x1b[A"},
		{"an empty read keeps the ESC held", []string{"\x1b", "", "[B"}, "\x1b[B"},
		{
			"a paste keeps its ESCs as text; after it they are keys again",
			[]string{"\x1b[200~a\x1b\x1bb\x1b", "\x1b[201~\x1b\x1b"},
			"\x1b[200~a" + pasteESC + pasteESC + "b" + pasteESC + "\x1b[201~" + esc + esc,
		},
		{
			"paste markers split between reads",
			[]string{"\x1b", "[2", "00~\x1b\x1b", "\x1b[20", "1~\x1b\x1b"},
			"\x1b[200~" + pasteESC + pasteESC + "\x1b[201~" + esc + esc,
		},
		{
			"sequences inside a paste are text",
			[]string{"\x1b[200~a\x1b[1;2 xyz\x1b]0;t\aB\x1b[201~"},
			"\x1b[200~a" + pasteESC + "[1;2 xyz" + pasteESC + "]0;t\aB\x1b[201~",
		},
		{
			"a paste whose last ESC starts no end marker",
			[]string{"\x1b[200~a\x1b[20", "9~\x1b[201~"},
			"\x1b[200~a" + pasteESC + "[209~\x1b[201~",
		},
		{"an OSC reply ends with ESC \\", []string{"\x1b]11;rgb:0/0/0\x1b\\\x1b[?1u"}, "\x1b]11;rgb:0/0/0\x1b\\\x1b[?1u"},
		{"an OSC reply ST split", []string{"\x1b]11;rgb:0/0/0\x1b", "\\"}, "\x1b]11;rgb:0/0/0\x1b\\"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := newChunkReader(c.chunks...)
			close(src.chunks)
			got, err := readAll(t, newEscReader(src, time.Minute, uv.EventDecoder{}))
			if !errors.Is(err, io.EOF) {
				t.Fatalf("err = %v, want EOF", err)
			}
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestEscReaderHandsOnALoneEscapeInTime: a held ESC with no read after it
// becomes an Escape once the hold is over (not before: a sequence split
// after its ESC may still come), and the read started meanwhile still
// hands on what comes next.
func TestEscReaderHandsOnALoneEscapeInTime(t *testing.T) {
	const wait = 30 * time.Millisecond
	src := newChunkReader("\x1b")
	r := newEscReader(src, wait, uv.EventDecoder{})
	buf := make([]byte, 64)
	start := time.Now()
	n, err := r.Read(buf)
	if err != nil || string(buf[:n]) != esc {
		t.Fatalf("Read = %q, %v; want %q", buf[:n], err, esc)
	}
	if d := time.Since(start); d < wait {
		t.Fatalf("the ESC was handed on after %v, before the hold of %v", d, wait)
	}
	src.chunks <- "[A"
	n, err = r.Read(buf)
	if err != nil || string(buf[:n]) != "[A" {
		t.Fatalf("Read = %q, %v; want the next read's bytes", buf[:n], err)
	}
}

// TestEscReaderCancelHandsOnTheHeldEscape: canceled while an ESC is held,
// the reader hands on the Escape, then the cancel.
func TestEscReaderCancelHandsOnTheHeldEscape(t *testing.T) {
	src := newChunkReader("a\x1b")
	r := newEscReader(src, time.Minute, uv.EventDecoder{})
	buf := make([]byte, 64)
	n, err := r.Read(buf)
	if err != nil || string(buf[:n]) != "a" {
		t.Fatalf("Read = %q, %v; want a", buf[:n], err)
	}
	go func() { time.Sleep(10 * time.Millisecond); r.Cancel() }()
	got, err := readAll(t, r)
	if got != esc || !errors.Is(err, cancelreader.ErrCanceled) {
		t.Fatalf("after Cancel: %q, %v; want %q, ErrCanceled", got, err, esc)
	}
}

// TestEscapeKeyIsAnEscapeToTheParser: what the reader hands on for an
// Escape is parsed as a plain Escape, whole.
func TestEscapeKeyIsAnEscapeToTheParser(t *testing.T) {
	var d uv.EventDecoder
	n, ev := d.Decode([]byte(esc + "\x1b"))
	if n != len(esc) || ev != (uv.KeyPressEvent{Code: uv.KeyEscape}) {
		t.Fatalf("Decode = %d, %#v", n, ev)
	}
}

// TestAltKeysAreTheParsersOwn: for every ESC-and-byte pair, what the reader
// hands on is read by the parser as the key it reads from the pair itself,
// whole; only the pairs that may start a longer sequence are left as they
// are (and ESC ESC, an Escape).
func TestAltKeysAreTheParsersOwn(t *testing.T) {
	var d uv.EventDecoder
	table, ending := altKeyTable(d)
	if ending['\\'] != "" {
		t.Errorf("ESC \\ (ST) ending a read is handed on as %q", ending['\\'])
	}
	for _, c := range []byte(strings.TrimSuffix(altIntroducers, "\\")) {
		_, want := d.Decode([]byte{0x1b, c})
		n, got := d.Decode([]byte(ending[c]))
		if ending[c] == "" || n != len(ending[c]) || got != want {
			t.Errorf("ESC %q ending a read: handed on as %q, read as %#v; the pair reads %#v", c, ending[c], got, want)
		}
	}
	left := ""
	for c := 0; c < len(table); c++ {
		pair := []byte{0x1b, byte(c)}
		seq := table[c]
		if seq == "" {
			left += string(rune(c))
			continue
		}
		_, want := d.Decode(pair)
		n, got := d.Decode([]byte(seq))
		if n != len(seq) || got != want {
			t.Errorf("%q: handed on as %q, read as %#v (%d bytes); the pair reads %#v", pair, seq, got, n, want)
		}
	}
	if left != "\x1bNOPX[\\]^_" {
		t.Errorf("pairs left to the parser: %q", left)
	}
}

// TestPastesReachTheProgramWhole: a bracketed paste goes through the
// reader and ultraviolet's parser to a PasteMsg with exactly the bytes
// pasted, escape sequences included, as a tmux pane passes them; the
// parser dropped each sequence (a pasted "a\x1b[1;2 xyz" was "ayz") and an
// unterminated OSC swallowed the rest of the paste and part of the next
// (black-box report).
func TestPastesReachTheProgramWhole(t *testing.T) {
	pastes := []string{
		"a\x1b[1;2 xyz",
		"A\x1b]0;t\aB",
		"A\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\B",
		"a\x1b[",
		"A\x1b]0;tB",
		"ok",
		"tab\tand\nnew line \x1b\x1b é 日本",
	}
	src := newChunkReader()
	for _, p := range pastes {
		src.chunks <- "\x1b[200~" + p + "\x1b[201~"
	}
	tr := uv.NewTerminalReader(newEscReader(src, time.Minute, uv.EventDecoder{}), "xterm-256color")
	events := make(chan uv.Event, 64)
	go func() { _ = tr.StreamEvents(t.Context(), events) }()
	p := &Program{}
	for _, want := range pastes {
		deadline := time.After(10 * time.Second)
		for got := false; !got; {
			select {
			case ev := <-events:
				if m, ok := p.translateInputEvent(ev).(PasteMsg); ok {
					if m.Content != want {
						t.Fatalf("paste %q arrived as %q", want, m.Content)
					}
					got = true
				}
			case <-deadline:
				t.Fatalf("paste %q never arrived", want)
			}
		}
	}
	src.Cancel()
}

// TestEscReaderWithoutEscapeTime: with an escape time of zero a lone ESC
// is an Escape at once, but the start of a paste's end marker that ends a
// read still waits for the rest of it (a paste split there must end).
func TestEscReaderWithoutEscapeTime(t *testing.T) {
	src := newChunkReader("\x1b")
	r := newEscReader(src, 0, uv.EventDecoder{})
	buf := make([]byte, 64)
	n, err := r.Read(buf)
	if err != nil || string(buf[:n]) != esc {
		t.Fatalf("Read = %q, %v; want %q at once", buf[:n], err, esc)
	}
	// The marker's rest is there for the next read: with no hold the ESC
	// would be taken as text before that read.
	src.chunks <- "\x1b[200~ab\x1b"
	src.chunks <- "[201~"
	close(src.chunks)
	got, err := readAll(t, r)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v, want EOF", err)
	}
	if want := "\x1b[200~ab\x1b[201~"; got != want {
		t.Fatalf("got %q, want %q: the split end marker was not waited for", got, want)
	}
}

// TestEscReaderWaitsForALatePastesEndMarker: a paste whose end marker
// comes in two reads far apart (longer than any escape time) still ends
// there, and what is typed after it is keys again. Handed on as text, the
// marker's ESC left the parser inside the paste for good.
func TestEscReaderWaitsForALatePastesEndMarker(t *testing.T) {
	for _, c := range []struct {
		name        string
		wait        time.Duration
		first, rest string
	}{
		{"ESC alone, escape time 0", 0, "\x1b[200~echo pasted\x1b", "[201~"},
		{"ESC alone, escape time 10 ms", 10 * time.Millisecond, "\x1b[200~echo pasted\x1b", "[201~"},
		{"inside the marker", 10 * time.Millisecond, "\x1b[200~echo pasted\x1b[20", "1~"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := newChunkReader(c.first)
			r := newEscReader(src, c.wait, uv.EventDecoder{})
			go func() {
				time.Sleep(c.wait + 50*time.Millisecond) // well past the hold
				src.chunks <- c.rest
				src.chunks <- "x\x1b"
				close(src.chunks)
			}()
			got, err := readAll(t, r)
			if !errors.Is(err, io.EOF) {
				t.Fatalf("err = %v, want EOF", err)
			}
			if want := "\x1b[200~echo pasted\x1b[201~x" + esc; got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}
