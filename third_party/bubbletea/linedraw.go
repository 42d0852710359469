package tea

// lineDraw (alice patch): a flush used to clear the whole screen buffer and
// parse the whole view into it, then diff every line against the terminal's
// — for a keystroke's echo, one changed line out of forty. drawFrame keeps
// the previous frame's lines and parses again only the lines whose text
// changed; the others keep their cells in the buffer and stay untouched, so
// the terminal renderer's diff skips them too.
//
// That is exact only when a line's cells depend on nothing but its own
// text. uv's string printer carries the current style and hyperlink from
// one line to the next, so a line is reused only when every line before it
// ends with no style and no open hyperlink (a styled line ends with an SGR
// reset, as lipgloss writes them), and only in the alternate screen, whose
// buffer is the window's size. Any other escape sequence in a line (which
// the printer might carry onto the next cell) also sends the frame down the
// full path.

import (
	"runtime"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// drawFrame copies view into s.cellbuf: only the lines that differ from the
// last frame drawn when both frames allow it, else the whole frame.
// fresh forces the whole frame (first frame, erase, resize, closing).
//
// The terminal renderer's scroll optimisation hashes every line and
// matches them in quadratic time on each frame; it pays only when lines
// moved, which is never the case when less than half the frame changed,
// so drawFrame turns it off for those frames. (Its hashes of lines changed
// meanwhile go stale: that costs at most a less optimal scroll later,
// never a wrong screen — every row a scroll moves is compared again.)
func (s *cursedRenderer) drawFrame(view *View, content *uv.StyledString, fresh bool) {
	redrawn := s.drawLines(view, content, fresh)
	s.scr.SetScrollOptim(runtime.GOOS != "windows" && 2*redrawn >= s.cellbuf.Height())
}

// drawLines does drawFrame's drawing and returns how many lines it drew.
func (s *cursedRenderer) drawLines(view *View, content *uv.StyledString, fresh bool) int {
	h, w := s.cellbuf.Height(), s.cellbuf.Width()
	fit := s.cellbuf.Method != ansi.GraphemeWidth
	var lines []string
	clean := 0
	if view.AltScreen && len(view.Content) > 0 {
		lines, clean = frameLines(view.Content, h, s.drawnLines, s.drawnClean)
	}
	if lines != nil && !fresh && s.drawnLines != nil && s.drawnMethod == s.cellbuf.Method && len(s.drawnLines) == h {
		n := 0
		for y, l := range lines {
			if l != s.drawnLines[y] {
				if fit {
					l = fitClusters(l)
				}
				uv.NewStyledString(l).Draw(s.cellbuf, uv.Rect(0, y, w, 1))
				n++
			}
		}
		s.drawnLines, s.drawnClean = lines, clean
		return n
	}
	if fit && mayMisfit(view.Content) {
		content = uv.NewStyledString(fitClusters(view.Content))
	}
	s.cellbuf.Clear()
	content.Draw(s.cellbuf, s.cellbuf.Bounds())
	s.drawnLines, s.drawnClean, s.drawnMethod = lines, clean, s.cellbuf.Method
	return h
}

// frameLines splits content into exactly h lines (missing ones empty, extra
// ones dropped: the alternate screen shows h) when each line that has a
// successor ends clean; nil when one does not. clean is how many leading
// lines were found to end clean. A line equal to the one at its index in
// the last frame's lines, among its first drawnClean, is not scanned again
// (an echo changes one line of forty).
func frameLines(content string, h int, drawn []string, drawnClean int) (lines []string, clean int) {
	if strings.Contains(content, "\r\n") {
		content = strings.ReplaceAll(content, "\r\n", "\n")
	}
	lines = make([]string, h)
	for y := 0; y < h && len(content) > 0; y++ {
		line, rest, more := strings.Cut(content, "\n")
		lines[y] = line
		if more && y+1 < h {
			if !(y < drawnClean && y < len(drawn) && line == drawn[y]) && !endsClean(line) {
				return nil, 0
			}
			clean = y + 1
		}
		if !more {
			break
		}
		content = rest
	}
	return lines, clean
}

// endsClean reports whether a line that starts with no style and no
// hyperlink ends the same way, using only sequences whose effect on the
// printer is known: SGR and OSC 8. Anything else makes it unclean.
func endsClean(line string) bool {
	styled, linked := false, false
	for {
		i := strings.IndexByte(line, '\x1b')
		if i < 0 {
			return !styled && !linked
		}
		line = line[i+1:]
		switch {
		case strings.HasPrefix(line, "["):
			j := strings.IndexFunc(line[1:], func(r rune) bool { return r >= 0x40 && r <= 0x7e })
			if j < 0 || line[1+j] != 'm' {
				return false
			}
			params := line[1 : 1+j]
			styled = params != "" && params != "0"
			line = line[2+j:]
		case strings.HasPrefix(line, "]8;"):
			end, stLen := oscEnd(line)
			if end < 0 {
				return false
			}
			// OSC 8 ; params ; URI — an empty URI closes the link.
			body := line[len("]8;"):end]
			_, uri, ok := strings.Cut(body, ";")
			if !ok {
				return false
			}
			linked = uri != ""
			line = line[end+stLen:]
		default:
			return false
		}
	}
}

// oscEnd finds an OSC's terminator (BEL or ESC \) and its length.
func oscEnd(s string) (int, int) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\a':
			return i, 1
		case '\x1b':
			if i+1 < len(s) && s[i+1] == '\\' {
				return i, 2
			}
			return -1, 0
		}
	}
	return -1, 0
}
