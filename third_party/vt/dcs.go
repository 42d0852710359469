package vt

import "github.com/charmbracelet/x/ansi"

// handleDcs handles a DCS escape sequence.
func (e *Emulator) handleDcs(cmd ansi.Cmd, params ansi.Params, data []byte) {
	e.flushGrapheme() // Flush any pending grapheme before handling DCS sequences.
	e.restoreString(data)
	if !e.handlers.handleDcs(cmd, params, data) {
		e.logf("unhandled sequence: DCS %q %q", paramsString(cmd, params), data)
	}
	e.lastChar = 0 // alice patch: see flushGrapheme
}

// handleApc handles an APC escape sequence.
func (e *Emulator) handleApc(data []byte) {
	e.flushGrapheme() // Flush any pending grapheme before handling APC sequences.
	e.restoreString(data)
	if !e.handlers.handleApc(data) {
		e.logf("unhandled sequence: APC %q", data)
	}
	e.lastChar = 0 // alice patch: see flushGrapheme
}

// handleSos handles an SOS escape sequence.
func (e *Emulator) handleSos(data []byte) {
	e.flushGrapheme() // Flush any pending grapheme before handling SOS sequences.
	e.restoreString(data)
	if !e.handlers.handleSos(data) {
		e.logf("unhandled sequence: SOS %q", data)
	}
	e.lastChar = 0 // alice patch: see flushGrapheme
}

// handlePm handles a PM escape sequence.
func (e *Emulator) handlePm(data []byte) {
	e.flushGrapheme() // Flush any pending grapheme before handling PM sequences.
	e.restoreString(data)
	if !e.handlers.handlePm(data) {
		e.logf("unhandled sequence: PM %q", data)
	}
	e.lastChar = 0 // alice patch: see flushGrapheme
}
