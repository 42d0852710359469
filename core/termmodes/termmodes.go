// Package termmodes follows the terminal modes a stream of program output
// turns on (alternate screen, mouse reporting, bracketed paste, keyboard
// protocols, a hidden cursor, …) and writes the bytes that put them back to
// the terminal's defaults. A client relaying a program's output keeps one
// so that it can restore the terminal when the program cannot (its
// connection is lost); tests use it to check that a program left nothing on.
package termmodes

import (
	"slices"
	"strconv"
	"strings"
)

// decDefaults are the DEC private modes tracked, with the state a terminal
// starts in (true: set).
var decDefaults = map[int]bool{
	1:    false, // application cursor keys
	6:    false, // origin mode
	7:    true,  // autowrap
	9:    false, // X10 mouse
	25:   true,  // cursor visible
	47:   false, // alternate screen (old form)
	1000: false, // mouse: press/release
	1001: false, // mouse: highlight
	1002: false, // mouse: button motion
	1003: false, // mouse: any motion
	1004: false, // focus events
	1005: false, // mouse: UTF-8 coordinates
	1006: false, // mouse: SGR coordinates
	1015: false, // mouse: urxvt coordinates
	1016: false, // mouse: SGR pixels
	1047: false, // alternate screen
	1049: false, // alternate screen, cursor saved
	2004: false, // bracketed paste
	2026: false, // synchronized output
}

// altScreens are the DEC modes that switch to the alternate screen.
var altScreens = []int{1049, 1047, 47}

// scan states of the escape-sequence reader.
type scanState uint8

const (
	ground scanState = iota
	escape           // after ESC
	csi              // inside CSI, collecting parameters
	str              // inside an OSC/DCS/SOS/PM/APC string
	strEsc           // ESC inside a string (ST is ESC \)
)

// Tracker follows the modes set by the bytes written to it. Sequences may
// be split across writes. The zero value is a terminal in its defaults.
type Tracker struct {
	dec       map[int]bool // DEC private modes that differ from decDefaults
	insert    bool         // IRM (CSI 4 h)
	keypad    bool         // DECKPAM (ESC =)
	kitty     int          // kitty keyboard entries pushed and not popped
	kittySet  bool         // kitty flags set without a push (CSI = flags u)
	otherKeys bool         // xterm modifyOtherKeys (CSI > 4 ; n m, n > 0)
	shape     bool         // a cursor shape other than the default (CSI n SP q)

	state scanState
	param []byte // CSI parameter and intermediate bytes so far
}

// Write scans p. It never fails.
func (t *Tracker) Write(p []byte) (int, error) {
	for _, b := range p {
		t.step(b)
	}
	return len(p), nil
}

func (t *Tracker) step(b byte) {
	switch t.state {
	case ground:
		if b == 0x1b {
			t.state = escape
		}
	case escape:
		switch b {
		case '[':
			t.state, t.param = csi, t.param[:0]
		case ']', 'P', 'X', '^', '_':
			t.state = str
		case '=':
			t.keypad, t.state = true, ground
		case '>':
			t.keypad, t.state = false, ground
		case 'c': // RIS: a full reset
			*t = Tracker{param: t.param[:0]}
		case 0x1b:
		default:
			t.state = ground
		}
	case csi:
		switch {
		case b >= 0x40 && b <= 0x7e:
			t.csi(string(t.param), b)
			t.state = ground
		case b == 0x1b:
			t.state = escape
		case b == 0x18 || b == 0x1a: // CAN, SUB abort it
			t.state = ground
		case len(t.param) < 64:
			t.param = append(t.param, b)
		}
	case str:
		switch b {
		case 0x07:
			t.state = ground
		case 0x1b:
			t.state = strEsc
		}
	case strEsc:
		if b == '\\' {
			t.state = ground
		} else {
			t.state = str
		}
	}
}

// csi applies one control sequence: params (with any private-marker and
// intermediate bytes) and its final byte.
func (t *Tracker) csi(params string, final byte) {
	switch {
	case final == 'h' || final == 'l':
		set := final == 'h'
		if rest, ok := strings.CutPrefix(params, "?"); ok {
			for _, n := range numbers(rest) {
				t.setDEC(n, set)
			}
			return
		}
		if slices.Contains(numbers(params), 4) {
			t.insert = set
		}
	case final == 'u' && strings.HasPrefix(params, ">"):
		t.kitty++
	case final == 'u' && strings.HasPrefix(params, "<"):
		n := 1
		if ns := numbers(params[1:]); len(ns) > 0 && ns[0] > 0 {
			n = ns[0]
		}
		t.kitty = max(t.kitty-n, 0)
		if t.kitty == 0 {
			t.kittySet = false
		}
	case final == 'u' && strings.HasPrefix(params, "="):
		if ns := numbers(params[1:]); t.kitty == 0 {
			t.kittySet = len(ns) > 0 && ns[0] != 0
		}
	case final == 'm' && strings.HasPrefix(params, ">"):
		ns := numbers(params[1:])
		if len(ns) > 0 && ns[0] == 4 {
			t.otherKeys = len(ns) > 1 && ns[1] > 0
		}
	case final == 'q' && strings.HasSuffix(params, " "):
		ns := numbers(strings.TrimSuffix(params, " "))
		t.shape = len(ns) > 0 && ns[0] != 0
	}
}

func (t *Tracker) setDEC(n int, set bool) {
	def, tracked := decDefaults[n]
	if !tracked {
		return
	}
	if t.dec == nil {
		t.dec = map[int]bool{}
	}
	if set == def {
		delete(t.dec, n)
	} else {
		t.dec[n] = set
	}
}

// numbers parses "1;2;3" (empty fields as 0; anything else ends the list).
func numbers(s string) []int {
	if s == "" {
		return nil
	}
	var out []int
	for _, f := range strings.Split(s, ";") {
		if f == "" {
			out = append(out, 0)
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return out
		}
		out = append(out, n)
	}
	return out
}

// Set names the modes left differing from the terminal's defaults, in a
// stable order: "?1049" for a DEC private mode (with "-" appended when a
// default-on mode is off, "?25-" for a hidden cursor), "insert", "keypad",
// "kitty", "modifyOtherKeys", "cursor-shape". Empty when the terminal is
// as it started.
func (t *Tracker) Set() []string {
	var out []string
	keys := make([]int, 0, len(t.dec))
	for n := range t.dec {
		keys = append(keys, n)
	}
	slices.Sort(keys)
	for _, n := range keys {
		name := "?" + strconv.Itoa(n)
		if !t.dec[n] {
			name += "-"
		}
		out = append(out, name)
	}
	for _, m := range []struct {
		on   bool
		name string
	}{{t.insert, "insert"}, {t.keypad, "keypad"}, {t.kitty > 0 || t.kittySet, "kitty"}, {t.otherKeys, "modifyOtherKeys"}, {t.shape, "cursor-shape"}} {
		if m.on {
			out = append(out, m.name)
		}
	}
	return out
}

// AltScreen reports whether the stream left the alternate screen on.
func (t *Tracker) AltScreen() bool {
	for _, n := range altScreens {
		if t.dec[n] {
			return true
		}
	}
	return false
}

// Restore returns the bytes that put every mode Set reports back to its
// default ("" when there is none), and resets the tracker to match. The
// keyboard modes are reset while still on the alternate screen (kitty
// keeps one stack per screen); the alternate screen is erased before it
// is left (tmux copies rows of a resized alternate screen to the main one
// when it is left) and left last.
func (t *Tracker) Restore() string {
	if len(t.Set()) == 0 {
		return ""
	}
	var b strings.Builder
	if t.kitty > 0 || t.kittySet {
		b.WriteString("\x1b[<" + strconv.Itoa(max(t.kitty, 1)) + "u")
	}
	if t.otherKeys {
		b.WriteString("\x1b[>4m")
	}
	if t.keypad {
		b.WriteString("\x1b>")
	}
	if t.insert {
		b.WriteString("\x1b[4l")
	}
	if t.shape {
		b.WriteString("\x1b[0 q")
	}
	keys := make([]int, 0, len(t.dec))
	for n := range t.dec {
		if !slices.Contains(altScreens, n) {
			keys = append(keys, n)
		}
	}
	slices.Sort(keys)
	for _, n := range keys {
		if decDefaults[n] {
			b.WriteString("\x1b[?" + strconv.Itoa(n) + "h")
		} else {
			b.WriteString("\x1b[?" + strconv.Itoa(n) + "l")
		}
	}
	if t.AltScreen() {
		b.WriteString("\x1b[2J")
		for _, n := range altScreens {
			if t.dec[n] {
				b.WriteString("\x1b[?" + strconv.Itoa(n) + "l")
			}
		}
	}
	*t = Tracker{param: t.param[:0]}
	return b.String()
}
