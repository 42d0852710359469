package tea

import (
	"fmt"
	"strings"
	"time"

	uv "github.com/charmbracelet/ultraviolet"

	"github.com/muesli/cancelreader"
)

// escReader stands between the terminal and ultraviolet's input parser so
// that every Escape typed reaches the program as an Escape.
//
// The parser reads ESC followed by a key as that key with alt: ESC ESC
// became alt+esc, and three ESCs too (the alt is set once), ESC ESC a was
// alt+esc then a, ESC ESC [ A was alt+up. A person pressing Esc twice fast
// (vim, Claude Code) or `tmux send-keys Escape Escape` lost an Escape: a
// program attached in alice got one ESC fewer than in a tmux pane, or,
// under the kitty protocol, alt+esc instead of two Escapes. No terminal
// sends alt+esc any other way in the legacy encoding, and the bytes of the
// two readings are the same there.
//
// So an ESC followed by another ESC is handed on as CSI 27 u, the kitty
// protocol's Escape, which the parser reads as Escape at once (no alt,
// nothing to wait for). The last ESC of a run keeps its meaning (ESC ESC a
// is Escape, alt+a). An ESC that ends a read is held back: the next read
// decides what it is (ESC again: an Escape; anything else: the ESC is
// put in front of it, so a sequence split between reads is parsed whole as
// before). With no next read within the parser's own escape timeout, the
// ESC is handed on as CSI 27 u. The parser used to hold that lone ESC for
// the same time before it gave up waiting for the rest of a sequence, so a
// single Escape is not any later than it was.
//
// The parser also holds every ESC-and-one-byte pair (alt+a, alt+1) for its
// whole escape timeout before it reports it, in case more of a sequence
// follows: alt+1 switched panes 50 ms late. A terminal sends such a key in
// one write, so a pair whose second byte starts no sequence (anything but
// [ O P ] _ ^ X N \) is handed on in the kitty protocol's form of the very
// key the parser reads from the pair (altKeyTable checks each against the
// parser), which it reports at once.
//
// Bracketed pastes are handed on unchanged: the parser keeps their ESCs
// as text.
type escReader struct {
	r    cancelreader.CancelReader
	wait time.Duration // how long an ESC that ended a read is held
	alt  altKeys       // what an ESC-and-byte pair is handed on as

	raw []byte // read into, when no read is running in the background
	out []byte // bytes for the parser; out[off:] not handed on yet
	off int
	err error // the read error, returned once out is empty

	held   bool      // an ESC that ended a read, not handed on yet
	heldAt time.Time // when it was read
	bg     chan readResult

	paste   bool // inside a bracketed paste
	mark    int  // bytes of a paste marker (ESC [ 2 0 0|1 ~) matched so far
	markEnd bool // the marker being matched ends a paste
}

type readResult struct {
	b   []byte
	err error
}

// escapeKey is Escape in the kitty keyboard protocol: CSI 27 u.
const escapeKey = "\x1b[27u"

// newEscReader reads r for a parser that decodes as dec does.
func newEscReader(r cancelreader.CancelReader, wait time.Duration, dec uv.EventDecoder) *escReader {
	return &escReader{r: r, wait: wait, alt: altKeyTable(dec), raw: make([]byte, 4096)}
}

func (r *escReader) Read(p []byte) (int, error) {
	if r.off == len(r.out) {
		r.out, r.off = r.out[:0], 0
	}
	for len(r.out) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		var b []byte
		var err error
		switch {
		case r.held && r.bg == nil && time.Since(r.heldAt) >= r.wait:
			// Read again only after the hold was over (a slow parser):
			// whatever comes next came too late to go with the ESC.
			r.held = false
			r.out = append(r.out, escapeKey...)
			continue
		case r.held && r.bg == nil:
			// Read in the background so the held ESC can be handed on
			// when its time is up.
			ch := make(chan readResult, 1)
			go func() {
				buf := make([]byte, len(r.raw))
				n, err := r.r.Read(buf)
				ch <- readResult{buf[:n], err}
			}()
			r.bg = ch
			continue
		case r.held:
			t := time.NewTimer(r.wait - time.Since(r.heldAt))
			select {
			case res := <-r.bg:
				t.Stop()
				r.bg, b, err = nil, res.b, res.err
			case <-t.C:
				select {
				case res := <-r.bg: // read just as the time was up
					r.bg, b, err = nil, res.b, res.err
				default:
					r.held = false
					r.out = append(r.out, escapeKey...)
					continue
				}
			}
		case r.bg != nil:
			res := <-r.bg
			r.bg, b, err = nil, res.b, res.err
		default:
			var n int
			n, err = r.r.Read(r.raw)
			b = r.raw[:n]
		}
		if len(b) > 0 {
			r.feed(b)
		}
		if err != nil {
			if r.held {
				r.held = false
				r.out = append(r.out, escapeKey...)
			}
			r.err = err
		}
	}
	n := copy(p, r.out[r.off:])
	r.off += n
	return n, nil
}

// feed appends to out what the parser gets for the bytes b read from the
// terminal (after the held ESC, if there is one).
func (r *escReader) feed(b []byte) {
	if r.held {
		r.held = false
		b = append([]byte{ansiESC}, b...)
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == ansiESC && !r.paste {
			switch {
			case i+1 == len(b):
				r.held, r.heldAt = true, time.Now()
				return // tracked when it is fed again
			case b[i+1] == ansiESC:
				r.out = append(r.out, escapeKey...)
			case b[i+1] < 0x80 && r.alt[b[i+1]] != "":
				r.out = append(r.out, r.alt[b[i+1]]...)
				r.track(c)
				i++
				c = b[i]
			default:
				r.out = append(r.out, c)
			}
		} else {
			r.out = append(r.out, c)
		}
		r.track(c)
	}
}

const ansiESC = 0x1b

// track follows the paste markers ESC [ 2 0 0 ~ and ESC [ 2 0 1 ~.
func (r *escReader) track(c byte) {
	const prefix = "\x1b[20"
	switch {
	case r.mark < len(prefix) && c == prefix[r.mark]:
		r.mark++
	case r.mark == len(prefix) && (c == '0' || c == '1'):
		r.markEnd = c == '1'
		r.mark++
	case r.mark == len(prefix)+1 && c == '~':
		r.paste = !r.markEnd
		r.mark = 0
	case c == ansiESC:
		r.mark = 1
	default:
		r.mark = 0
	}
}

// Cancel ends the pending read (the background one, if an ESC is held).
func (r *escReader) Cancel() bool { return r.r.Cancel() }

func (r *escReader) Close() error { return r.r.Close() } //nolint:wrapcheck

var _ cancelreader.CancelReader = (*escReader)(nil)

// altKeys maps the byte after an ESC to the kitty protocol's form of the
// key the parser reads from the pair, "" where the pair is left as it is.
type altKeys [0x80]string

// altIntroducers are the bytes that, after an ESC, start a longer sequence
// (CSI, SS3, DCS, OSC, APC, PM, SOS, SS2) or end a string (ST): such a
// pair may be the first part of a sequence split between reads.
const altIntroducers = "[OP]_^XN\\"

// altKeyTable builds altKeys for a parser that decodes as dec: for each
// byte that starts no sequence, the key dec reads from ESC and that byte,
// written as CSI code[:shifted];mods u, kept only if dec reads exactly
// that key from it, whole.
func altKeyTable(dec uv.EventDecoder) altKeys {
	var t altKeys
	for c := 0; c < len(t); c++ {
		if c == ansiESC || strings.IndexByte(altIntroducers, byte(c)) >= 0 {
			continue
		}
		n, ev := dec.Decode([]byte{ansiESC, byte(c)})
		k, ok := ev.(uv.KeyPressEvent)
		if n != 2 || !ok || k.Text != "" || k.BaseCode != 0 || k.IsRepeat {
			continue
		}
		code := fmt.Sprint(int(k.Code))
		if k.ShiftedCode != 0 {
			code += fmt.Sprintf(":%d", k.ShiftedCode)
		}
		seq := fmt.Sprintf("\x1b[%s;%du", code, int(k.Mod)+1)
		if m, got := dec.Decode([]byte(seq)); m == len(seq) && got == ev {
			t[c] = seq
		}
	}
	return t
}
