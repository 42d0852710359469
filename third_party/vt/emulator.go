package vt

import (
	"image/color"
	"io"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/ultraviolet/screen"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
)

// Logger represents a logger interface.
type Logger interface {
	Printf(format string, v ...any)
}

// Emulator represents a virtual terminal emulator.
type Emulator struct {
	handlers

	// The terminal's indexed 256 colors.
	colors [256]color.Color

	// Both main and alt screens and a pointer to the currently active screen.
	scrs [2]Screen
	scr  *Screen

	// histUnwrapped says the newest history line lost its wrap flag
	// while the scrollback was empty: it is the newest line the caller
	// drained (alice patch; see TakeHistoryUnwrapped).
	histUnwrapped bool
	// beforeMainResize is OnMainResize's function (alice patch).
	beforeMainResize func(rows int)

	// Character sets
	charsets [4]CharSet

	// log is the logger to use.
	logger Logger

	// terminal default colors.
	defaultFg, defaultBg, defaultCur color.Color
	fgColor, bgColor, curColor       color.Color

	// Terminal modes.
	modes ansi.Modes
	// autoWrap mirrors modes[ansi.ModeAutoWrap] (alice patch; setMode keeps
	// it current).
	autoWrap bool
	// insertMode mirrors modes[ansi.ModeInsertReplace] (alice patch).
	insertMode bool
	// printModes is !autoWrap || insertMode (alice patch).
	printModes bool

	// The last written character.
	lastChar rune // either ansi.Rune or ansi.Grapheme
	// The bytes of a grapheme cluster still being composed. Bytes rather than
	// runes, so the segmenter can read the buffer without a conversion on
	// every character.
	grapheme []byte

	// The ANSI parser to use.
	parser *ansi.Parser
	cb     Callbacks

	// The terminal's icon name and title.
	iconName, title string
	// The current reported working directory. This is not validated.
	cwd string

	// tabstop is the list of tab stops.
	tabstops *uv.TabStops

	// I/O pipes.
	pr *io.PipeReader
	pw *io.PipeWriter

	// The GL and GR character set identifiers.
	gl, gr  int
	gsingle int // temporarily select GL or GR

	// Indicates if the terminal is closed.
	closed bool

	// saved is the DECSC cursor, altSaved the 1049h one (alice patch, see
	// saveCursor and setAltScreenSaveCursor).
	saved, altSaved Cursor
	altSavedSet     bool
	altBy1049       bool // the alternate screen was entered by 1049h
	savedOrigin     bool
	// savedPast, altSavedPast: the saved cursor was past the margin (a
	// wrap pending), one column right of saved.X in tmux's terms (alice
	// patch: restored on a wider screen it is that column).
	savedPast, altSavedPast bool

	// atPhantom indicates if the cursor is out of bounds.
	// When true, and a character is written, the cursor is moved to the next line.
	atPhantom bool

	// strCont counts the UTF-8 continuation bytes still expected inside an
	// OSC/DCS/SOS/PM/APC string (alice patch, see Write); strLen counts the
	// string's bytes so far and strSubs are the bytes Write replaced.
	strCont int
	strLen  int
	strSubs []strSub
}

// strSub is a byte of a control string Write passed to the parser as 0xBF.
type strSub struct {
	at int
	b  byte
}

// restoreString puts the bytes Write replaced back into a control
// string's data (alice patch, see Write).
func (e *Emulator) restoreString(data []byte) {
	for _, s := range e.strSubs {
		if s.at < len(data) && data[s.at] == 0xBF {
			data[s.at] = s.b
		}
	}
	e.strSubs = e.strSubs[:0]
}

var _ Terminal = (*Emulator)(nil)

// NewEmulator creates a new virtual terminal emulator.
func NewEmulator(w, h int) *Emulator {
	t := new(Emulator)
	t.scrs[0] = *NewScreen(w, h)
	// alice patch: the alternate screen has no cells until a program
	// enters it (setAltScreenMode sizes it then and releases it on the
	// way out): its cells were half an idle session's memory.
	t.scrs[1] = *NewScreen(0, 0)
	// alice patch: the alternate screen keeps no scrollback (x #947: it
	// cloned every row a full-screen program scrolled, up to 10,000).
	t.scrs[1].scrollback = nil
	// alice patch: clearing or moving the screen's top row clears the
	// newest history line's wrap flag, as in tmux, whose grid holds the
	// history above the screen (the alternate screen's too).
	unwrap := func() {
		if sb := t.scrs[0].scrollback; sb != nil && sb.Len() > 0 {
			sb.unwrapNewest()
		} else if sb.unwrapSink() {
			// the sink holds the newest line
		} else if sb != nil {
			t.histUnwrapped = true
		}
	}
	t.scrs[0].unwrapHistory = unwrap
	t.scrs[1].unwrapHistory = unwrap
	t.scr = &t.scrs[0]
	t.scrs[0].cb = &t.cb
	t.scrs[1].cb = &t.cb
	t.parser = ansi.NewParser()
	t.parser.SetParamsSize(parser.MaxParamsSize)
	// alice patch: 64 KiB for OSC/DCS payloads (was 4 MiB per emulator,
	// most of an idle session's memory).
	t.parser.SetDataSize(64 << 10)
	t.parser.SetHandler(ansi.Handler{
		Print:     t.handlePrint,
		Execute:   t.handleControl,
		HandleCsi: t.handleCsi,
		HandleEsc: t.handleEsc,
		HandleDcs: t.handleDcs,
		HandleOsc: t.handleOsc,
		HandleApc: t.handleApc,
		HandlePm:  t.handlePm,
		HandleSos: t.handleSos,
	})
	t.pr, t.pw = io.Pipe()
	t.resetModes()
	t.tabstops = uv.DefaultTabStops(w)
	t.registerDefaultHandlers()

	// No default colors (alice): the outer terminal's own are unknown, and
	// tmux 3.3a leaves an OSC 10/11/12 query unanswered while the pane's
	// colours are the defaults; SetDefault*Color sets them.

	return t
}

// SetLogger sets the terminal's logger.
func (e *Emulator) SetLogger(l Logger) {
	e.logger = l
}

// SetCallbacks sets the terminal's callbacks.
func (e *Emulator) SetCallbacks(cb Callbacks) {
	e.cb = cb
	e.scrs[0].cb = &e.cb
	e.scrs[1].cb = &e.cb
}

// Touched returns the touched lines in the current screen buffer.
func (e *Emulator) Touched() []*uv.LineData {
	return e.scr.Touched()
}

// String returns a string representation of the underlying screen buffer.
func (e *Emulator) String() string {
	s := e.scr.buf.String()
	return uv.TrimSpace(s)
}

// Render renders a snapshot of the terminal screen as a string with styles and
// links encoded as ANSI escape codes.
func (e *Emulator) Render() string {
	return e.scr.buf.Render()
}

var _ uv.Screen = (*Emulator)(nil)

// Bounds returns the bounds of the terminal.
func (e *Emulator) Bounds() uv.Rectangle {
	return e.scr.Bounds()
}

// CellAt returns the current focused screen cell at the given x, y position.
// It returns nil if the cell is out of bounds.
func (e *Emulator) CellAt(x, y int) *uv.Cell {
	return e.scr.CellAt(x, y)
}

// SetCell sets the current focused screen cell at the given x, y position.
func (e *Emulator) SetCell(x, y int, c *uv.Cell) {
	e.scr.SetCell(x, y, c)
}

// WidthMethod returns the width method used by the terminal.
func (e *Emulator) WidthMethod() uv.WidthMethod {
	if e.isModeSet(ansi.ModeUnicodeCore) {
		return ansi.GraphemeWidth
	}
	return ansi.WcWidth
}

// Draw implements the [uv.Drawable] interface.
func (e *Emulator) Draw(scr uv.Screen, area uv.Rectangle) {
	bg := uv.EmptyCell
	bg.Style.Bg = e.BackgroundColor()
	screen.FillArea(scr, &bg, area)
	for y := range e.Touched() {
		if y < 0 || y >= e.Height() {
			continue
		}
		for x := 0; x < e.Width(); {
			w := 1
			cell := e.CellAt(x, y)
			if cell != nil {
				cell = cell.Clone()
				if cell.Width > 1 {
					w = cell.Width
				}
				if cell.Style.Bg == nil && e.bgColor != nil {
					cell.Style.Bg = e.bgColor
				}
				if cell.Style.Fg == nil && e.fgColor != nil {
					cell.Style.Fg = e.fgColor
				}
				scr.SetCell(x+area.Min.X, y+area.Min.Y, cell)
			}
			x += w
		}
	}
}

// Height returns the height of the terminal.
func (e *Emulator) Height() int {
	return e.scr.Height()
}

// Width returns the width of the terminal.
func (e *Emulator) Width() int {
	return e.scr.Width()
}

// CursorPosition returns the terminal's cursor position.
func (e *Emulator) CursorPosition() uv.Position {
	x, y := e.scr.CursorPosition()
	return uv.Pos(x, y)
}

// CursorPen returns the style the next printed character gets (alice
// patch: the coalescer renders skipped lines with it).
func (e *Emulator) CursorPen() uv.Style {
	return e.scr.cursorPen()
}

// Resize resizes the terminal.
//
// alice patch: as tmux. The main screen reflows (reflow, wrap.go); under
// the alternate screen only the alternate screen is resized (not
// reflowed) and the main screen keeps the size it had, as tmux keeps its
// saved grid, until the alternate screen ends (leaveAltSize).
func (e *Emulator) Resize(width int, height int) {
	if width <= 0 || height <= 0 {
		return
	}
	x, y := e.scr.CursorPosition()
	pending := e.atPhantom
	// A width change keeps the scroll region's rows, as tmux resets it
	// only in screen_resize_y, when the height changes (a line feed at
	// the bottom of a region scrolled the whole screen after it).
	region, sameHeight := e.scr.scroll, height == e.scr.Height()
	sameWidth := width == e.scr.Width()
	if e.scr == &e.scrs[0] {
		x, y, pending = e.resizeMain(width, height, x, y, pending)
		// The alternate screen has no cells now: it is sized as it is
		// entered (alice patch).
	} else {
		x, y, pending = e.resizeAlt(width, height, x, y, pending)
	}
	if sameHeight {
		e.scr.scroll = uv.Rect(0, region.Min.Y, width, region.Dy())
	}
	// The tab stops are reset when the width changes, as tmux's
	// screen_resize_cursor (a height change reset them too).
	if !sameWidth {
		e.tabstops = uv.DefaultTabStops(width)
	}
	e.setCursor(x, y)
	e.atPhantom = pending

	if e.isModeSet(ansi.ModeInBandResize) {
		_, _ = io.WriteString(e.pw, ansi.InBandResize(e.Height(), e.Width(), 0, 0))
	}
}

// resizeMain resizes the main screen with its cursor at x, y (x may be
// its width: past the margin), a wrap pending or not, and returns where
// the cursor goes, as tmux's screen_resize_cursor: the height first, at
// the old width, then the width (reflow). (alice patch)
func (e *Emulator) resizeMain(width, height, x, y int, pending bool) (int, int, bool) {
	main := &e.scrs[0]
	reflow := width != main.Width()
	if pending {
		x = main.Width() // past the margin, where tmux keeps it
	}
	// Shrinking the height below the cursor row scrolls the screen up
	// (the top rows go to the scrollback), whatever the scroll region,
	// as tmux's screen_resize_y, so the cursor's line and what is above
	// it stay visible. Upstream kept the top rows and dropped the bottom
	// ones, leaving the cursor on a stale line that the next output
	// overwrote.
	y = max(y, 0)
	if d := y - height + 1; d > 0 {
		main.scrollOffTop(d)
		y -= d
	}
	// A taller screen pulls the lines that scrolled off its top back
	// down, as tmux's screen_resize_y.
	grow := height - main.Height()
	main.Resize(main.Width(), height)
	if grow > 0 {
		y += main.pullHistory(grow)
	}
	if reflow {
		x, y, pending = main.reflow(width, x, y)
		main.scroll = main.buf.Bounds()
		return x, y, pending
	}
	// The same width: a cursor past the margin stays there (a wrap
	// pending), as tmux's.
	return min(x, width-1), y, x >= width
}

// resizeAlt resizes the alternate screen, which is not reflowed: its
// rows are cut or padded, and the cursor keeps its column as tmux's, past
// the margin when a wrap is pending; at or past the new width it is past
// the margin there (the next character wraps): a wrap pending on the last
// column here (it ended on the last column with none, where the next
// character overwrote the last cell). A wide character the new margin
// cuts becomes a blank of its style (cutWideAtMargin). (alice patch)
func (e *Emulator) resizeAlt(width, height, x, y int, pending bool) (int, int, bool) {
	alt := &e.scrs[1]
	oldWidth := alt.Width()
	if pending {
		x++
	}
	// Shorter, the rows above the cursor go (tmux deletes them: the
	// alternate screen has no history) rather than the cursor's own
	// (codex's composer was cut off when its pane got shorter).
	y = max(y, 0)
	if d := y - height + 1; d > 0 {
		alt.scrollOffTop(d)
		y -= d
	}
	alt.Resize(width, height)
	if width < oldWidth {
		alt.cutWideAtMargin()
	}
	return min(x, width-1), min(y, height-1), x >= width
}

// leaveAltSize resizes the main screen to the alternate screen's size as
// the alternate screen ends, as tmux's screen_alternate_off: the cursor
// that goes back to the main screen (fromAlt: the alternate screen's, as
// with 1047; otherwise the main screen's own, as 1049 restores it) is
// moved through a resize to the size the alternate screen was entered at
// with the alternate screen's rows (altCursorAt), then through the main
// screen's resize to the current size, which reflows the main screen and
// scrolls or pulls its rows by that cursor. (alice patch)
func (e *Emulator) leaveAltSize(fromAlt bool) {
	main, alt := &e.scrs[0], &e.scrs[1]
	width, height := alt.Width(), alt.Height()
	if main.Width() == width && main.Height() == height {
		return
	}
	x, y := main.cur.X, main.cur.Y
	if !fromAlt && e.altBy1049 && e.altSavedPast {
		x++ // 1049h saved it past the margin
	}
	if fromAlt {
		x, y = alt.cur.X, alt.cur.Y
		if e.atPhantom {
			x++
		}
		x, y = alt.cursorAt(main.Width(), main.Height(), x, y)
	}
	if e.beforeMainResize != nil {
		e.beforeMainResize(height)
	}
	x, y, _ = e.resizeMain(width, height, x, y, false)
	main.cur.X, main.cur.Y = min(x, width-1), min(y, height-1)
}

// OnMainResize sets a function called before the main screen is resized
// as the alternate screen ends (leaveAltSize), with the new height: the
// caller that keeps the scrollback itself puts its newest lines back
// (Scrollback), for the reflow and for a taller screen to pull. (alice
// patch)
func (e *Emulator) OnMainResize(f func(rows int)) {
	e.beforeMainResize = f
}

// Read reads data from the terminal input buffer.
func (e *Emulator) Read(p []byte) (n int, err error) {
	if e.closed {
		return 0, io.EOF
	}

	return e.pr.Read(p) //nolint:wrapcheck
}

// Close closes the terminal.
func (e *Emulator) Close() error {
	if e.closed {
		return nil
	}

	e.closed = true
	return e.pw.CloseWithError(io.EOF) //nolint:wrapcheck
}

// Write writes data to the terminal output buffer.
func (e *Emulator) Write(p []byte) (n int, err error) {
	if e.closed {
		return 0, io.ErrClosedPipe
	}

	for i := range p {
		b := p[i]
		// alice patch: inside a control string, a UTF-8 continuation
		// byte in 0x80–0x9F is text, not a C1 control: the parser took
		// 0x9C (as in "✳", E2 9C B3, in claude's window title) for ST,
		// ended the OSC early and printed the rest of the title on the
		// screen. Such a byte is passed as 0xBF, so the string keeps
		// going, and put back in the string's data before its handler
		// sees it (restoreString), as tmux keeps UTF-8 in titles and
		// hyperlinks.
		st := e.parser.State()
		inString := st == parser.OscStringState || st == parser.DcsStringState || st == parser.SosStringState ||
			st == parser.PmStringState || st == parser.ApcStringState
		if !inString {
			e.strLen, e.strSubs = 0, e.strSubs[:0]
		}
		switch {
		case !inString:
			e.strCont = 0
		case b >= 0xC0 && b <= 0xF7:
			e.strCont = 1
			if b >= 0xE0 {
				e.strCont = 2
			}
			if b >= 0xF0 {
				e.strCont = 3
			}
		case b >= 0x80 && b <= 0xBF && e.strCont > 0:
			e.strCont--
			if b <= 0x9F {
				e.strSubs = append(e.strSubs, strSub{at: e.strLen, b: b})
				b = 0xBF
			}
		default:
			e.strCont = 0
		}
		if inString {
			e.strLen++
		}
		e.parser.Advance(b)
		// Flush the last cluster once the whole slice is written. Every
		// sequence handler flushes on its own way in, so a cluster only has to
		// survive until either the next printable character extends it or the
		// write ends.
		if len(e.grapheme) > 0 && i == len(p)-1 {
			e.flushGrapheme()
		}
	}
	return len(p), nil
}

// WriteString writes a string to the terminal output buffer.
func (e *Emulator) WriteString(s string) (n int, err error) {
	return e.Write([]byte(s))
}

// InputPipe returns the terminal's input pipe.
// This can be used to send input to the terminal.
func (e *Emulator) InputPipe() io.Writer {
	return e.pw
}

// Paste pastes text into the terminal.
// If bracketed paste mode is enabled, the text is bracketed with the
// appropriate escape sequences.
func (e *Emulator) Paste(text string) {
	if e.isModeSet(ansi.ModeBracketedPaste) {
		_, _ = io.WriteString(e.pw, ansi.BracketedPasteStart)
		defer io.WriteString(e.pw, ansi.BracketedPasteEnd) //nolint:errcheck
	}

	_, _ = io.WriteString(e.pw, text)
}

// SendText sends arbitrary text to the terminal.
func (e *Emulator) SendText(text string) {
	_, _ = io.WriteString(e.pw, text)
}

// SendKeys sends multiple keys to the terminal.
func (e *Emulator) SendKeys(keys ...uv.KeyEvent) {
	for _, k := range keys {
		e.SendKey(k)
	}
}

// ForegroundColor returns the terminal's foreground color. This returns nil if
// the foreground color is not set which means the outer terminal color is
// used.
func (e *Emulator) ForegroundColor() color.Color {
	if e.fgColor == nil {
		return e.defaultFg
	}
	return e.fgColor
}

// SetForegroundColor sets the terminal's foreground color.
func (e *Emulator) SetForegroundColor(c color.Color) {
	if c == nil {
		c = e.defaultFg
	}
	e.fgColor = c
	if e.cb.ForegroundColor != nil {
		e.cb.ForegroundColor(c)
	}
}

// SetDefaultForegroundColor sets the terminal's default foreground color.
func (e *Emulator) SetDefaultForegroundColor(c color.Color) {
	if c == nil {
		c = color.White
	}
	e.defaultFg = c
}

// BackgroundColor returns the terminal's background color. This returns nil if
// the background color is not set which means the outer terminal color is
// used.
func (e *Emulator) BackgroundColor() color.Color {
	if e.bgColor == nil {
		return e.defaultBg
	}
	return e.bgColor
}

// SetBackgroundColor sets the terminal's background color.
func (e *Emulator) SetBackgroundColor(c color.Color) {
	if c == nil {
		c = e.defaultBg
	}
	e.bgColor = c
	if e.cb.BackgroundColor != nil {
		e.cb.BackgroundColor(c)
	}
}

// SetDefaultBackgroundColor sets the terminal's default background color.
func (e *Emulator) SetDefaultBackgroundColor(c color.Color) {
	if c == nil {
		c = color.Black
	}
	e.defaultBg = c
}

// CursorColor returns the terminal's cursor color. This returns nil if the
// cursor color is not set which means the outer terminal color is used.
func (e *Emulator) CursorColor() color.Color {
	if e.curColor == nil {
		return e.defaultCur
	}
	return e.curColor
}

// SetCursorColor sets the terminal's cursor color.
func (e *Emulator) SetCursorColor(c color.Color) {
	if c == nil {
		c = e.defaultCur
	}
	e.curColor = c
	if e.cb.CursorColor != nil {
		e.cb.CursorColor(c)
	}
}

// SetDefaultCursorColor sets the terminal's default cursor color.
func (e *Emulator) SetDefaultCursorColor(c color.Color) {
	if c == nil {
		c = color.White
	}
	e.defaultCur = c
}

// IndexedColor returns a terminal's indexed color. An indexed color is a color
// between 0 and 255.
func (e *Emulator) IndexedColor(i int) color.Color {
	if i < 0 || i > 255 {
		return nil
	}

	c := e.colors[i]
	if c == nil {
		// Return the default color.
		return ansi.IndexedColor(i)
	}

	return c
}

// SetIndexedColor sets a terminal's indexed color.
// The index must be between 0 and 255.
func (e *Emulator) SetIndexedColor(i int, c color.Color) {
	if i < 0 || i > 255 {
		return
	}

	e.colors[i] = c
}

// resetTabStops resets the terminal tab stops to the default set.
func (e *Emulator) resetTabStops() {
	e.tabstops = uv.DefaultTabStops(e.Width())
}

func (e *Emulator) logf(format string, v ...any) {
	if e.logger != nil {
		e.logger.Printf(format, v...)
	}
}

// Scrollback returns the scrollback buffer for the main screen.
// Returns nil if the terminal is in alternate screen mode, as the alternate
// screen typically doesn't use scrollback.
func (e *Emulator) Scrollback() *Scrollback {
	// Return main screen's scrollback only
	return e.scrs[0].Scrollback()
}

// ScrollbackLen returns the number of lines in the scrollback buffer.
func (e *Emulator) ScrollbackLen() int {
	sb := e.Scrollback()
	if sb == nil {
		return 0
	}
	return sb.Len()
}

// ScrollbackCellAt returns the cell at the given position in the scrollback buffer.
// x is the column, y is the line index (0 = oldest line in scrollback).
// Returns nil if position is out of bounds.
func (e *Emulator) ScrollbackCellAt(x, y int) *uv.Cell {
	sb := e.Scrollback()
	if sb == nil {
		return nil
	}
	return sb.CellAt(x, y)
}

// SetScrollbackSize sets the maximum number of lines in the scrollback buffer.
func (e *Emulator) SetScrollbackSize(maxLines int) {
	e.scrs[0].SetScrollbackSize(maxLines)
}

// ClearScrollback clears the scrollback buffer.
func (e *Emulator) ClearScrollback() {
	sb := e.Scrollback()
	if sb != nil {
		sb.Clear()
	}
}

// IsAltScreen returns whether the terminal is in alternate screen mode.
func (e *Emulator) IsAltScreen() bool {
	return e.scr == &e.scrs[1]
}

// TakeHistoryUnwrapped reports (once) whether the newest history line
// lost its wrap flag while the scrollback was empty, that is the newest
// line the caller took out of it: the screen's top row was cleared or
// moved, as tmux's grid_clear_lines and grid_move_lines clear the flag of
// the row above, which for the top row is the newest history line.
// (alice patch)
func (e *Emulator) TakeHistoryUnwrapped() bool {
	u := e.histUnwrapped
	e.histUnwrapped = false
	return u
}
