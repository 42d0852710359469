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
// as text. The start of the end marker that ends a read inside a paste is
// held until the next read, however late: every paste ends with its
// marker, so that read comes, and a marker handed on as text left the
// parser inside the paste, taking every key typed after it as pasted
// text until another paste ended (tmux reads such a paste whole).
type escReader struct {
	r    cancelreader.CancelReader
	wait time.Duration // how long an ESC that ended a read is held
	alt  altKeys       // what an ESC-and-byte pair is handed on as
	// altEnd is what an ESC-and-byte pair that may start a sequence is
	// handed on as when it ended a read and nothing followed in time.
	altEnd altKeys

	raw []byte // read into, when no read is running in the background
	out []byte // bytes for the parser; out[off:] not handed on yet
	off int
	err error // the read error, returned once out is empty

	// held is what ended a read and waits for the next one: an ESC (at
	// most wait), or inside a paste the start of what may be its end
	// marker (until the next read).
	held   []byte
	heldAt time.Time // when it was read
	bg     chan readResult

	paste   bool // inside a bracketed paste
	mark    int  // bytes of a paste marker (ESC [ 2 0 0|1 ~) matched so far
	markEnd bool // the marker being matched ends a paste

	// Passthrough (passthrough.go): pass is nil when the reader only
	// feeds the parser. handed is the number of the last batch handed
	// to the parser; scan is where the bytes handed so far leave the
	// parser.
	pass   *inputPass
	handed uint64
	scan   seqScan
}

type readResult struct {
	b   []byte
	err error
}

// escapeKey is Escape in the kitty keyboard protocol: CSI 27 u.
const escapeKey = "\x1b[27u"

// newEscReader reads r for a parser that decodes as dec does.
func newEscReader(r cancelreader.CancelReader, wait time.Duration, dec uv.EventDecoder) *escReader {
	alt, altEnd := altKeyTable(dec)
	return &escReader{r: r, wait: wait, alt: alt, altEnd: altEnd, raw: make([]byte, 4096)}
}

// withPass makes the reader hand typed text to the program's sink when
// it can (passthrough.go). A new reader starts unsure of what an earlier
// one left in the parser: its first batch goes to the parser.
func (r *escReader) withPass(ip *inputPass) *escReader {
	r.pass, r.handed = ip, ip.handed.Add(1)
	return r
}

// passed hands b, a read, to the program's text sink when b is typed text,
// nothing is held back, the parser is between sequences and the program
// has handled every message made of what the parser got before.
func (r *escReader) passed(b []byte) bool {
	ip := r.pass
	return ip != nil && len(r.held) == 0 && !r.paste && r.mark == 0 && r.scan == seqGround &&
		ip.reached.Load() == r.handed && typedText(b) && ip.take(b)
}

// handOut numbers a new batch for the parser and, while the program has a
// text sink, puts a marker behind it when it ends between sequences.
func (r *escReader) handOut() {
	ip := r.pass
	if ip == nil {
		return
	}
	r.scan.scan(r.out)
	r.handed = ip.handed.Add(1)
	if ip.active() && r.scan == seqGround && len(r.held) == 0 && !r.paste && r.mark == 0 {
		r.out = append(r.out, ip.marker(r.handed)...)
	}
}

func (r *escReader) Read(p []byte) (int, error) {
	if r.off == len(r.out) {
		r.out, r.off = r.out[:0], 0
	}
	fresh := len(r.out) == 0
	for len(r.out) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		var b []byte
		var err error
		switch {
		case len(r.held) > 0 && !r.paste && r.bg == nil && time.Since(r.heldAt) >= r.wait:
			// Read again only after the hold was over (a slow parser):
			// whatever comes next came too late to go with the ESC.
			r.expireHeld()
			continue
		case len(r.held) > 0 && !r.paste && r.bg == nil:
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
		case len(r.held) > 0 && !r.paste:
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
					r.expireHeld()
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
		if len(b) > 0 && !r.passed(b) {
			r.feed(b)
		}
		if err != nil {
			r.expireHeld()
			r.err = err
		}
	}
	if fresh {
		r.handOut()
	}
	n := copy(p, r.out[r.off:])
	r.off += n
	return n, nil
}

// expireHeld hands on what was held when no read came in time: an ESC
// is an Escape; inside a paste, the bytes are text.
func (r *escReader) expireHeld() {
	switch {
	case len(r.held) == 0:
	case r.paste:
		r.out = append(append(r.out, pasteESC...), r.held[1:]...)
	case len(r.held) == 2:
		r.out = append(r.out, r.altEnd[r.held[1]]...)
	default:
		r.out = append(r.out, escapeKey...)
	}
	r.held = r.held[:0]
}

// pasteEnd ends a bracketed paste.
const pasteEnd = "\x1b[201~"

// pasteESC stands for an ESC inside a paste, a character of Unicode's
// private use plane 15 (U+F001B) that input.go turns back into ESC in the
// paste's text. The parser reads the paste's bytes as keys and keeps only
// their text: an ESC inside it started a sequence that was dropped (a
// pasted "a\x1b[1;2 xyz" came out "ayz", an unterminated OSC swallowed the
// rest and the next paste) and waited out its escape timeout.
const pasteESC = "\U000F001B"

// feed appends to out what the parser gets for the bytes b read from the
// terminal (after what was held, if anything).
func (r *escReader) feed(b []byte) {
	if len(r.held) > 0 {
		b = append(append([]byte(nil), r.held...), b...)
		r.held = r.held[:0]
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if r.paste {
			i = r.feedPaste(b, i)
			continue
		}
		if c == ansiESC {
			switch {
			case i+1 == len(b):
				r.held, r.heldAt = append(r.held[:0], ansiESC), time.Now()
				return // tracked when it is fed again
			case b[i+1] == ansiESC:
				r.out = append(r.out, escapeKey...)
			case b[i+1] < 0x80 && r.alt[b[i+1]] != "":
				r.out = append(r.out, r.alt[b[i+1]]...)
				r.track(c)
				i++
				c = b[i]
			case i+2 == len(b) && b[i+1] < 0x80 && r.altEnd[b[i+1]] != "":
				// ESC [ or ESC O ending a read: alt+[ or alt+O, unless
				// the rest of a sequence follows within the hold.
				r.held, r.heldAt = append(r.held[:0], b[i:]...), time.Now()
				return
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

// feedPaste hands on b[i] inside a paste and returns the index of the
// last byte it took: the end marker whole, an ESC that starts no end
// marker as pasteESC, anything else as it is. The start of a marker that
// ends the read is held for the next one.
func (r *escReader) feedPaste(b []byte, i int) int {
	if b[i] != ansiESC {
		r.out = append(r.out, b[i])
		return i
	}
	n := 1
	for n < len(pasteEnd) && i+n < len(b) && b[i+n] == pasteEnd[n] {
		n++
	}
	switch {
	case n == len(pasteEnd):
		r.out = append(r.out, pasteEnd...)
		r.paste, r.mark = false, 0
		return i + n - 1
	case i+n == len(b):
		r.held, r.heldAt = append(r.held[:0], b[i:]...), time.Now()
		return len(b) - 1
	default:
		r.out = append(r.out, pasteESC...)
		return i
	}
}

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

// altKeyTable builds the tables for a parser that decodes as dec: for
// each byte, the key dec reads from ESC and that byte, written as
// CSI code[:shifted];mods u, kept only if dec reads exactly that key from
// it, whole. pairs holds the bytes that start no sequence; ending holds
// the others (altIntroducers) but ST's, for a pair that ended a read.
func altKeyTable(dec uv.EventDecoder) (pairs, ending altKeys) {
	for c := 0; c < len(pairs); c++ {
		if c == ansiESC {
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
		if m, got := dec.Decode([]byte(seq)); m != len(seq) || got != ev {
			continue
		}
		switch {
		case c == '\\':
			// ESC \ ends a string (ST): an OSC or DCS reply that
			// ended a read is whole; the parser takes it as it is.
		case strings.IndexByte(altIntroducers, byte(c)) >= 0:
			ending[c] = seq
		default:
			pairs[c] = seq
		}
	}
	return pairs, ending
}
