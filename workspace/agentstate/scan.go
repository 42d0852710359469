package agentstate

import (
	"strconv"
	"strings"
)

// SignalKind names what a child told its terminal.
type SignalKind int

// Signals the scanner extracts from raw output.
const (
	SignalTitle    SignalKind = iota + 1 // OSC 0 or 2: window title
	SignalProgress                       // OSC 9;4: taskbar progress
	SignalNotify                         // OSC 9 (text), 777;notify, 99: desktop notification
	SignalBell                           // BEL outside any string sequence
)

// Progress is the OSC 9;4 state (ConEmu / Windows Terminal convention).
type Progress int

// Progress states: 0 clears, 1 sets a value, 2 is an error, 3 is
// indeterminate (busy), 4 is paused/warning.
const (
	ProgressNone Progress = iota
	ProgressNormal
	ProgressError
	ProgressBusy
	ProgressPaused
)

// Signal is one extracted event.
type Signal struct {
	Kind     SignalKind
	Text     string   // title or notification text
	Progress Progress // for SignalProgress
	Value    int      // progress percentage, -1 when absent
}

// maxOSC bounds how much of one string sequence is kept; longer payloads
// (inline images, clipboard writes) are skipped, not buffered.
const maxOSC = 4096

type scanState uint8

const (
	stGround scanState = iota
	stEsc
	stOSC
	stOSCEsc
	stString // DCS, APC, PM, SOS: skipped up to ST or BEL
	stStringEsc
)

// Scanner extracts titles, progress, notifications and bells from a raw
// pty byte stream. Sequences may be split across Feed calls. It keeps
// only the state of the escape sequence in progress. Byte 0x9d (C1 OSC)
// is deliberately not treated as OSC: it occurs inside UTF-8 text.
type Scanner struct {
	st       scanState
	buf      []byte
	overflow bool
}

// Feed scans p and appends the signals found to out.
func (s *Scanner) Feed(p []byte, out []Signal) []Signal {
	for _, b := range p {
		switch s.st {
		case stGround:
			switch b {
			case 0x07:
				out = append(out, Signal{Kind: SignalBell})
			case 0x1b:
				s.st = stEsc
			}
		case stEsc:
			s.escByte(b)
		case stOSC:
			switch b {
			case 0x07:
				out = s.dispatch(out)
				s.st = stGround
			case 0x1b:
				s.st = stOSCEsc
			case 0x18, 0x1a: // CAN, SUB abort
				s.st = stGround
			default:
				if len(s.buf) < maxOSC {
					s.buf = append(s.buf, b)
				} else {
					s.overflow = true
				}
			}
		case stOSCEsc:
			if b == '\\' {
				out = s.dispatch(out)
				s.st = stGround
				continue
			}
			// ESC inside OSC aborts it and starts a new sequence.
			s.escByte(b)
		case stString:
			switch b {
			case 0x07, 0x18, 0x1a:
				s.st = stGround
			case 0x1b:
				s.st = stStringEsc
			}
		case stStringEsc:
			if b == '\\' {
				s.st = stGround
			} else {
				s.st = stString
			}
		}
	}
	return out
}

// escByte handles the byte after ESC.
func (s *Scanner) escByte(b byte) {
	switch b {
	case ']':
		s.st, s.buf, s.overflow = stOSC, s.buf[:0], false
	case 'P', '_', '^', 'X':
		s.st = stString
	case 0x1b:
		s.st = stEsc
	default:
		s.st = stGround
	}
}

func (s *Scanner) dispatch(out []Signal) []Signal {
	if s.overflow {
		return out
	}
	ps, pt, _ := strings.Cut(string(s.buf), ";")
	switch ps {
	case "0", "2":
		return append(out, Signal{Kind: SignalTitle, Text: pt})
	case "9":
		if rest, ok := strings.CutPrefix(pt, "4;"); ok || pt == "4" {
			return append(out, parseProgress(rest))
		}
		if pt == "" {
			return out
		}
		return append(out, Signal{Kind: SignalNotify, Text: pt})
	case "777":
		// 777;notify;title;body (rxvt-unicode, foot, ghostty)
		parts := strings.SplitN(pt, ";", 3)
		if len(parts) >= 2 && parts[0] == "notify" {
			return append(out, Signal{Kind: SignalNotify, Text: strings.TrimSpace(strings.Join(parts[1:], " "))})
		}
	case "99":
		// kitty: 99;metadata;payload
		if _, body, ok := strings.Cut(pt, ";"); ok && body != "" {
			return append(out, Signal{Kind: SignalNotify, Text: body})
		}
	}
	return out
}

func parseProgress(rest string) Signal {
	sig := Signal{Kind: SignalProgress, Value: -1}
	st, val, _ := strings.Cut(rest, ";")
	n, err := strconv.Atoi(st)
	if err != nil || n < 0 || n > 4 {
		n = 0
	}
	sig.Progress = Progress(n)
	if v, err := strconv.Atoi(val); err == nil && v >= 0 && v <= 100 {
		sig.Value = v
	}
	return sig
}
