package workspace

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// zoomInputModes are the modes a program sets that change what the
// terminal sends it (keys, mouse, focus, pastes): a zoom gives them to the
// real terminal.
var zoomInputModes = []ansi.Mode{
	ansi.ModeCursorKeys,
	ansi.ModeMouseX10, ansi.ModeMouseNormal, ansi.ModeMouseHighlight, ansi.ModeMouseButtonEvent, ansi.ModeMouseAnyEvent,
	ansi.ModeMouseExtSgr,
	ansi.ModeFocusEvent,
	ansi.ModeBracketedPaste,
}

// zoomModes is what puts the real terminal in the modes the session's
// program set before the zoom began, after the zoom's repaint: the zoom
// starts from the terminal's defaults (the TUI reset them), so a claude or
// vim started in the pane and then zoomed got its pastes without brackets
// (every line submitted on its own), no mouse or focus reports, normal
// cursor and keypad keys, autowrap it had turned off, the real cursor
// over its own, no scroll region, and keys without the kitty flags or
// modifyOtherKeys level it asked for (claude's shift+enter arrived as
// enter). What the program sets during the zoom reaches the terminal
// directly; leaveZoom puts everything back at the end.
func (t *Terminal) zoomModes() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	for _, m := range zoomInputModes {
		if t.modes[m] {
			b.WriteString(ansi.SetMode(m))
		}
	}
	if t.modes[ansi.ModeNumericKeypad] {
		b.WriteString(ansi.DECKPAM)
	}
	if t.modes[ansi.ModeInsertReplace] {
		b.WriteString(ansi.SetMode(ansi.ModeInsertReplace))
	}
	if !t.modes[ansi.ModeAutoWrap] {
		b.WriteString(ansi.ResetMode(ansi.ModeAutoWrap))
	}
	if !t.cursorVisible {
		b.WriteString(ansi.ResetMode(ansi.ModeTextCursorEnable))
	}
	// A scroll region (and origin mode in it): without it, the program's
	// next line feed at the region's bottom scrolled the whole real screen.
	// DECSTBM homes the cursor, so it is put back.
	if top, bottom := t.emu.ScrollRegion(); top > 0 || bottom < t.emu.Height() {
		p := t.emu.CursorPosition()
		fmt.Fprintf(&b, "\x1b[%d;%dr", top+1, bottom)
		row := p.Y + 1
		if t.modes[ansi.ModeOrigin] {
			b.WriteString(ansi.SetMode(ansi.ModeOrigin))
			row -= top
		}
		fmt.Fprintf(&b, "\x1b[%d;%dH", row, p.X+1)
	}
	// Keyboard reporting the program asked for (leaveZoom resets it).
	b.WriteString(t.keys.zoom(t.emu.IsAltScreen()))
	return b.String()
}
