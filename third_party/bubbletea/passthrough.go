package tea

// Passthrough (alice patch): text typed into a program that forwards every
// key to a child (a terminal attached in a pane) reached it through two
// goroutine hand-offs — the reading goroutine to the parser's, the parser's
// to the event loop — and the model's Update, about 10 µs at the median
// and 30 at p90 of a keystroke's echo (traced, idle), more under load. tmux
// writes a pane's input from the loop that read it.
//
// A model that forwards text as it is typed says so after each Update
// (TextTaker); the reader then hands a read that is only text straight to
// that model's sink, from the reading goroutine, when nothing read before
// it can still be waiting: every byte handed to the parser earlier has
// become messages the model has handled. The reader knows that from a
// marker it puts behind what it hands the parser while a sink is set: an
// APC (ESC _ … ESC \) naming the read, which the parser decodes after the
// read's own events and the event loop takes out of the stream, noting
// that everything before it has been through Update. A read handed to the
// parser without a marker (it ended inside a sequence or a paste, or no
// sink was set) keeps the passthrough off until a later marker is reached.
//
// So the order of input is the order it was typed: a ctrl+q read just
// before "ls" detaches first, and "ls" then goes wherever the model sends
// keys after that. A sink is taken away by the Update that stops
// forwarding. The one race left is with a message that is not input (a
// dialog opened by the network) while text is being typed: the text goes
// to the child the person was typing to, not to a dialog they had not seen.

import (
	"strconv"

	uv "github.com/charmbracelet/ultraviolet"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// TextSink takes typed text for a child: the bytes a terminal sends for
// printable characters, Enter, Tab and Backspace, unchanged. It reports false to refuse them (they
// then reach the model as keys).
type TextSink interface {
	TakeText(b []byte) bool
}

// TextTaker is a Model that can name, after an Update, where typed text
// goes without a message (nil: through Update, as keys). The sink it
// returns is called from the input goroutine; it must be comparable (a
// pointer) and safe for that.
type TextTaker interface {
	TextSink() TextSink
}

// inputPass is the passthrough shared by the reader and the event loop.
type inputPass struct {
	sink    atomic.Pointer[sinkRef] // the model's, after its last Update
	handed  atomic.Uint64           // numbers the reads handed to the parser
	reached atomic.Uint64           // the last marker the event loop took
	nonce   string                  // tells the reader's markers from input
	inputAt *atomic.Int64           // the program's last input time
	last    TextSink                // event loop only: the sink published
}

type sinkRef struct{ s TextSink }

func newInputPass(inputAt *atomic.Int64) *inputPass {
	return &inputPass{nonce: strconv.FormatInt(time.Now().UnixNano(), 36), inputAt: inputAt}
}

// publish stores the model's sink after an Update (event loop only).
func (ip *inputPass) publish(m Model) {
	var s TextSink
	if t, ok := m.(TextTaker); ok {
		s = t.TextSink()
	}
	if s == ip.last {
		return
	}
	ip.last = s
	if s == nil {
		ip.sink.Store(nil)
		return
	}
	ip.sink.Store(&sinkRef{s})
}

// active reports whether a sink is set.
func (ip *inputPass) active() bool { return ip.sink.Load() != nil }

// take hands b to the sink, if one is set and takes it.
func (ip *inputPass) take(b []byte) bool {
	r := ip.sink.Load()
	if r == nil || !r.s.TakeText(b) {
		return false
	}
	if ip.inputAt != nil {
		ip.inputAt.Store(time.Now().UnixNano())
	}
	return true
}

const markPrefix = "\x1b_alice-input;"

// marker is the APC put behind the read numbered seq.
func (ip *inputPass) marker(seq uint64) string {
	return markPrefix + ip.nonce + ";" + strconv.FormatUint(seq, 10) + "\x1b\\"
}

// reach notes a marker the event loop took from the stream; it reports
// false for anything else.
func (ip *inputPass) reach(msg Msg) bool {
	s, ok := msg.(uv.UnknownApcEvent)
	if !ok {
		return false
	}
	rest, ok := cutPrefix(string(s), markPrefix+ip.nonce+";")
	if !ok || len(rest) < 3 || rest[len(rest)-2:] != "\x1b\\" {
		return false
	}
	seq, err := strconv.ParseUint(rest[:len(rest)-2], 10, 64)
	if err != nil {
		return false
	}
	ip.reached.Store(seq)
	return true
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || s[:len(prefix)] != prefix {
		return s, false
	}
	return s[len(prefix):], true
}

// typedText reports whether b is only typed text: printable ASCII, whole
// UTF-8 characters outside the C1 controls, and the three keys a line of
// text is typed with, Enter (CR), Tab and Backspace (DEL). Every keyboard
// mode the pane encodes sends each such key as these very bytes
// (workspace's TestTypedTextIsSentAsTyped); other controls (ctrl+c under
// the kitty protocol) are not.
func typedText(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\r' && c != '\t' {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError || r < 0xa0 {
			return false
		}
		i += n
	}
	return len(b) > 0
}

// seqScan follows the escape-sequence structure of the bytes handed to
// the parser, to tell whether a read ended between sequences (where a
// marker can follow it).
type seqScan uint8

const (
	seqGround    seqScan = iota
	seqEsc               // after ESC
	seqCSI               // inside CSI … final
	seqSS                // after ESC O / ESC N: one more byte
	seqString            // OSC/DCS/APC/PM/SOS body
	seqStringEsc         // ESC inside a string (maybe ST)
)

func (s *seqScan) scan(b []byte) {
	for _, c := range b {
		switch *s {
		case seqGround:
			if c == 0x1b {
				*s = seqEsc
			}
		case seqEsc:
			switch c {
			case '[':
				*s = seqCSI
			case 'O', 'N':
				*s = seqSS
			case ']', 'P', '_', '^', 'X':
				*s = seqString
			case 0x1b:
				*s = seqEsc
			default:
				*s = seqGround
			}
		case seqCSI:
			if c >= 0x40 && c <= 0x7e {
				*s = seqGround
			} else if c == 0x1b {
				*s = seqEsc
			}
		case seqSS:
			*s = seqGround
			if c == 0x1b {
				*s = seqEsc
			}
		case seqString:
			switch c {
			case 0x1b:
				*s = seqStringEsc
			case 0x07:
				*s = seqGround
			}
		case seqStringEsc:
			*s = seqString
			if c == '\\' {
				*s = seqGround
			}
		}
	}
}
