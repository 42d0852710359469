//go:build !linux

package tea

import (
	"io"

	"github.com/muesli/cancelreader"
)

// newPollReader: only Linux reopens the terminal for the poller (see
// pollreader_linux.go); elsewhere the portable cancel reader is used.
func newPollReader(io.Reader) cancelreader.CancelReader { return nil }
