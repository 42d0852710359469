package core

import (
	"fmt"
	"unicode/utf8"
)

// MaxErrorChars bounds the text of an error a tool returns: a caller's
// megabyte-long argument quoted in a message is not sent back whole.
const MaxErrorChars = 1000

// ClipText keeps at most max bytes of s (never splitting a character)
// and says how much it left out.
func ClipText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d characters clipped)", s[:cut], len(s)-cut)
}

// clippedError keeps errors.Is/As working through a clipped message.
type clippedError struct{ err error }

func (e clippedError) Error() string { return ClipText(e.err.Error(), MaxErrorChars) }
func (e clippedError) Unwrap() error { return e.err }

// clipError bounds err's message (nil stays nil).
func clipError(err error) error {
	if err == nil || len(err.Error()) <= MaxErrorChars {
		return err
	}
	return clippedError{err}
}
