package workspace

import (
	"bytes"
	"log/slog"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
)

// TestTypedTextIsSentAsTyped is why SendText may send typed text without
// decoding it: for every read the TUI's input reader hands over as text
// (printable ASCII, UTF-8 characters), the keys the TUI's parser decodes
// from it, encoded as SendKey encodes them, are the same bytes — in every
// keyboard mode a child can ask for (kitty flags, modifyOtherKeys,
// application cursor keys).
func TestTypedTextIsSentAsTyped(t *testing.T) {
	var texts []string
	for c := byte(0x20); c < 0x7f; c++ {
		texts = append(texts, string(c))
	}
	texts = append(texts, "\r", "\x7f", "\t", "ls\r", "Hello, World!", "é", "ñandú", "日本語", "👍", "👍🏽", "e\u0301", "🇫🇷", "Ω≈ç√", "\u00a0", "\U000F001B")
	var dec uv.EventDecoder
	for _, text := range texts {
		var keys []KeyPress
		for rest := []byte(text); len(rest) > 0; {
			n, ev := dec.Decode(rest)
			k, ok := ev.(uv.KeyPressEvent)
			if n == 0 || !ok {
				t.Fatalf("%q: the parser read %T %v (%d bytes), not a key", text, ev, ev, n)
			}
			keys = append(keys, KeyPress(k))
			rest = rest[n:]
		}
		for _, flags := range []int{0, 1, 2, 3, 8, 9, 31} {
			for _, other := range []int{0, 1, 2} {
				for _, appCursor := range []bool{false, true} {
					var sent []byte
					for _, k := range keys {
						sent = append(sent, encodeKeyIn(k, flags, other, appCursor)...)
					}
					if !bytes.Equal(sent, []byte(text)) {
						t.Errorf("%q (kitty flags %d, modifyOtherKeys %d, DECCKM %v): SendKey would send %q", text, flags, other, appCursor, sent)
					}
				}
			}
		}
	}
}

// TestSendTextWritesTheBytes: SendText writes what it is given, in order
// with keys; a closed terminal refuses it.
func TestSendTextWritesTheBytes(t *testing.T) {
	term := NewTerminal(20, 5, slog.New(slog.DiscardHandler))
	var out bytes.Buffer
	term.SetOutput(&out)
	term.SendKey(KeyPress{Code: 'x', Text: "x"})
	if !term.SendText([]byte("héllo")) {
		t.Fatal("an open terminal refused text")
	}
	term.SendKey(KeyPress{Code: uv.KeyEnter})
	if got := out.String(); got != "xhéllo\r" {
		t.Fatalf("sent %q", got)
	}
	term.Close()
	if term.SendText([]byte("more")) {
		t.Fatal("a closed terminal took text")
	}
	if got := out.String(); got != "xhéllo\r" {
		t.Fatalf("after close: %q", got)
	}
}
