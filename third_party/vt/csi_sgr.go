package vt

import (
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// handleSgr handles SGR escape sequences.
// handleSgr handles Select Graphic Rendition (SGR) escape sequences.
func (e *Emulator) handleSgr(params ansi.Params) {
	// alice patch: SGR 21 is a double underline, as in tmux
	// (input_csi_dispatch_sgr) and xterm; uv's ReadStyle ignores it. The
	// parameters are read in runs between the 21s, so a later parameter
	// still overrides it.
	has21 := false
	for _, p := range params {
		has21 = has21 || p.Param(0) == 21
	}
	if !has21 { // the usual case: one pass, in ReadStyle
		uv.ReadStyle(params, &e.scr.cur.Pen)
		return
	}
	start := 0
	for i := 0; i < len(params); i++ {
		p := params[i]
		n := p.Param(0)
		if p.HasMore() {
			// Colon sub-parameters (38:2::r:g:b, 4:3) belong to n.
			for i+1 < len(params) && params[i].HasMore() {
				i++
			}
			continue
		}
		switch n {
		case 38, 48, 58:
			if i+1 < len(params) {
				switch params[i+1].Param(0) {
				case 5:
					i += 2
				case 2:
					i += 4
				}
			}
		case 21:
			if i > start { // an empty run would read as SGR 0
				uv.ReadStyle(params[start:i], &e.scr.cur.Pen)
			}
			e.scr.cur.Pen.Underline = uv.UnderlineStyleDouble
			start = i + 1
		}
	}
	if start == 0 || start < len(params) {
		uv.ReadStyle(params[start:], &e.scr.cur.Pen)
	}
}
