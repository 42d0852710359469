package workspace

import (
	"encoding/binary"
	"image/color"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// A run's style (attrRun.style) is one of three things:
//
//   - 0: no attributes;
//   - with inlineStyle set: the style itself, when it is one opaque 24-bit
//     colour (foreground or background) and at most the attributes bold,
//     faint, italic, blink, rapid blink and reverse — what a 24-bit
//     gradient, lolcat or a truecolor syntax highlighter prints, where
//     nearly every run has a colour no other run has. It costs nothing
//     beyond the run;
//   - otherwise an id into the ring's style table, which holds each
//     distinct style once.
//
// The table holds exactly the styles of the lines in the ring, however
// many (ids are 31 bits): each id counts the runs of held lines that use
// it, and an id no line uses any more is freed and reused. So no line
// loses its colours while it is in the ring, and a lookup is an index (a
// map lookup for the rare styles packedStyle cannot hold).
// Freeing waits for a point between pushes (reclaimStyles): an id handed
// out for a row that is not pushed yet may count no run for a moment.
const (
	inlineStyle = 1 << 31
	inlineBg    = 1 << 30 // the inline colour is the background
	// inlineAttrs are the attributes an inline style keeps (uv's first
	// six: bold, faint, italic, blink, rapid blink, reverse).
	inlineAttrs = 0x3f
)

// styleCost is what a style in the table costs (its entry, the map's slot,
// its counts: 56–70 bytes measured from 1,000 to 160,000 styles), counted
// against the scrollback budget like the lines' bytes: 100,000 distinct
// fg+bg 24-bit styles (an image drawn in half blocks) cost ~6 MB, more
// than the runs that use them.
const styleCost = 64

// shrinkAt is the smallest table (ids, free ones included) that is
// renumbered when three quarters of it are free: Go's maps and slices do
// not shrink, so a table that held a flood of styles would keep its size
// after those lines left the ring.
const shrinkAt = 1 << 12

// maxSGRCache bounds the SGR cache (cleared when full): a gradient's
// sequences are all different and would only fill it.
const maxSGRCache = 1 << 12

// inlineOf encodes s as an inline run style, if it is one.
func inlineOf(s *uv.Style) (uint32, bool) {
	if s.UnderlineColor != nil || s.Underline != uv.UnderlineNone || s.Attrs&^inlineAttrs != 0 {
		return 0, false
	}
	var c color.Color
	var bg uint32
	switch {
	case s.Bg == nil:
		c = s.Fg
	case s.Fg == nil:
		c, bg = s.Bg, inlineBg
	default:
		return 0, false
	}
	rgb, ok := c.(color.RGBA)
	if !ok || rgb.A != 0xff {
		return 0, false
	}
	return inlineStyle | bg | uint32(s.Attrs)<<24 | uint32(rgb.R)<<16 | uint32(rgb.G)<<8 | uint32(rgb.B), true
}

// tableID reports whether a run style is an id into the table.
func tableID(id uint32) bool { return id != 0 && id&inlineStyle == 0 }

// packedStyle is a style in the table: its colours as colour codes, in 16
// bytes where uv.Style takes 56 and a boxed value per colour. A style with
// a colour no code holds (CMYK, transparent, an RGBA colour that is not
// opaque: rare SGR forms) is kept whole in the table's exotic maps.
type packedStyle struct {
	fg, bg, ul       uint32 // colour codes
	attrs, underline uint8
	exotic           bool // the style is exotic[id]
}

// Colour codes: the kind in the top byte, the value below (0: no colour).
const (
	codeBasic   = 1 << 24 // ansi.BasicColor
	codeIndexed = 2 << 24 // ansi.IndexedColor (256 colours)
	codeRGB     = 3 << 24 // opaque color.RGBA
	codeValue   = 1<<24 - 1
)

func colourCode(c color.Color) (uint32, bool) {
	switch c := c.(type) {
	case nil:
		return 0, true
	case ansi.BasicColor:
		return codeBasic | uint32(c), true
	case ansi.IndexedColor:
		return codeIndexed | uint32(c), true
	case color.RGBA:
		if c.A == 0xff {
			return codeRGB | uint32(c.R)<<16 | uint32(c.G)<<8 | uint32(c.B), true
		}
	}
	return 0, false
}

func colourOf(code uint32) color.Color {
	v := code & codeValue
	switch code &^ codeValue {
	case codeBasic:
		return ansi.BasicColor(v)
	case codeIndexed:
		return ansi.IndexedColor(v)
	case codeRGB:
		return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
	}
	return nil
}

// pack returns s as a packedStyle, ok false when a colour has no code.
func pack(s *uv.Style) (p packedStyle, ok bool) {
	var okFg, okBg, okUl bool
	p.fg, okFg = colourCode(s.Fg)
	p.bg, okBg = colourCode(s.Bg)
	p.ul, okUl = colourCode(s.UnderlineColor)
	p.attrs, p.underline = s.Attrs, uint8(s.Underline)
	return p, okFg && okBg && okUl
}

func (p *packedStyle) unpack() uv.Style {
	return uv.Style{Fg: colourOf(p.fg), Bg: colourOf(p.bg), UnderlineColor: colourOf(p.ul),
		Underline: uv.Underline(p.underline), Attrs: p.attrs}
}

// styleTable numbers the distinct styles of a ring's lines that are not
// stored inline (id 0 is the empty style), so a run costs 8 bytes
// whatever its colours.
type styleTable struct {
	list []packedStyle // by id; a free id holds the zero packedStyle
	ids  map[packedStyle]uint32
	refs []uint32 // by id: the runs of held lines that use it
	gen  []uint32 // by id: bumped when it is freed (the SGR cache names ids)
	free []uint32 // freed ids, reused first
	// unused are ids whose count was 0 at some point since the last
	// reclaim (new ids too); reclaim frees those still at 0.
	unused []uint32
	live   int // ids in use
	// exotic holds the styles packedStyle cannot, by id and by style.
	exotic    map[uint32]uv.Style
	exoticIDs map[uv.Style]uint32
	sgr       map[sgrKey]sgrResult
}

// style returns the style of a run style.
func (t *styleTable) style(id uint32) uv.Style {
	if id&inlineStyle != 0 {
		c := color.RGBA{R: uint8(id >> 16), G: uint8(id >> 8), B: uint8(id), A: 0xff}
		s := uv.Style{Attrs: uint8(id>>24) & inlineAttrs}
		if id&inlineBg != 0 {
			s.Bg = c
		} else {
			s.Fg = c
		}
		return s
	}
	if id == 0 || int(id) >= len(t.list) {
		return uv.Style{}
	}
	if p := &t.list[id]; !p.exotic {
		return p.unpack()
	}
	return t.exotic[id]
}

// id returns the run style of s, and whether it added an id to the table.
func (t *styleTable) id(s *uv.Style) (uint32, bool) {
	if s.IsZero() {
		return 0, false
	}
	if id, ok := inlineOf(s); ok {
		return id, false
	}
	p, packed := pack(s)
	if packed {
		if id, ok := t.ids[p]; ok {
			return id, false
		}
	} else if id, ok := t.exoticIDs[*s]; ok {
		return id, false
	}
	if t.ids == nil {
		t.list, t.refs, t.gen, t.ids = []packedStyle{{}}, []uint32{0}, []uint32{0}, map[packedStyle]uint32{}
	}
	var id uint32
	if n := len(t.free); n > 0 {
		id, t.free = t.free[n-1], t.free[:n-1]
	} else {
		if len(t.list) >= inlineStyle {
			// 2^31 styles held (hundreds of GB): cannot happen within
			// the scrollback budget.
			return 0, false
		}
		id = uint32(len(t.list))
		t.list, t.refs, t.gen = append(t.list, packedStyle{}), append(t.refs, 0), append(t.gen, 0)
	}
	if packed {
		t.list[id] = p
		t.ids[p] = id
	} else {
		if t.exotic == nil {
			t.exotic, t.exoticIDs = map[uint32]uv.Style{}, map[uv.Style]uint32{}
		}
		t.list[id] = packedStyle{exotic: true}
		t.exotic[id], t.exoticIDs[*s] = *s, id
	}
	t.unused = append(t.unused, id) // no run counted yet
	t.live++
	return id, true
}

// hold counts the runs of a line that comes into the ring.
func (t *styleTable) hold(runs []attrRun) {
	for _, r := range runs {
		if tableID(r.style) {
			t.refs[r.style]++
		}
	}
}

// release uncounts the runs of a line that leaves the ring.
func (t *styleTable) release(runs []attrRun) {
	for _, r := range runs {
		if tableID(r.style) {
			if t.refs[r.style]--; t.refs[r.style] == 0 {
				t.unused = append(t.unused, r.style)
			}
		}
	}
}

// reclaim frees the ids no held line uses and returns how many it freed.
func (t *styleTable) reclaim() int {
	freed := 0
	for _, id := range t.unused {
		p := &t.list[id]
		if t.refs[id] != 0 || *p == (packedStyle{}) {
			continue // in use again, or freed already
		}
		if p.exotic {
			delete(t.exoticIDs, t.exotic[id])
			delete(t.exotic, id)
		} else {
			delete(t.ids, *p)
		}
		*p = packedStyle{}
		t.gen[id]++
		t.free = append(t.free, id)
		freed++
	}
	if cap(t.unused) > 1<<12 {
		t.unused = nil // a flood's batch: not kept for an idle session
	} else {
		t.unused = t.unused[:0]
	}
	t.live -= freed
	return freed
}

// genOf is the generation of a run style (0 unless a table id).
func (t *styleTable) genOf(id uint32) uint32 {
	if tableID(id) && int(id) < len(t.gen) {
		return t.gen[id]
	}
	return 0
}

// sgrKey is a run style, its generation and an SGR sequence's parameters
// (ended by 'm').
type sgrKey [32]byte

// sgrResult is the run style an SGR sequence makes, with its generation:
// a cached id that was freed since (and maybe reused) is not taken.
type sgrResult struct{ id, gen uint32 }

// styleID numbers a style for runs (rowSink), counting a new table entry
// against the budget.
func (r *scrollRing) styleID(s *uv.Style) uint32 {
	id, added := r.styles.id(s)
	if added {
		r.account(styleCost)
	}
	return id
}

// account adds d bytes to what the ring holds, and to the budget.
func (r *scrollRing) account(d int64) {
	r.bytes += d
	if r.budget != nil {
		r.budget.add(d)
	}
}

// reclaimStyles frees the table ids no held line uses any more, and
// renumbers a table that is mostly free. It must run between pushes, when
// no id is held outside the ring (the drain, the history sink, a trim):
// ids handed out before it may be stale after it. It returns the bytes
// freed (taken off the budget too).
func (r *scrollRing) reclaimStyles() int64 {
	if len(r.styles.unused) == 0 {
		return 0
	}
	n := r.styles.reclaim()
	if n == 0 {
		return 0
	}
	freed := int64(n) * styleCost
	r.account(-freed)
	if len(r.styles.list) >= shrinkAt && r.styles.live*4 < len(r.styles.list) {
		r.renumberStyles()
	}
	return freed
}

// renumberStyles rebuilds the table with the styles the held lines use,
// renumbering their runs (a walk of every run held). reclaimStyles runs
// it when at least three quarters of the ids are free, so it costs O(runs
// held) once per thousands of styles that came and went.
func (r *scrollRing) renumberStyles() {
	r.renumbers++
	old := r.styles
	r.styles = styleTable{}
	for i := 0; i < r.n; i++ {
		l := r.at(i)
		for j := range l.runs {
			if s := l.runs[j].style; tableID(s) {
				st := old.style(s)
				id, _ := r.styles.id(&st)
				r.styles.refs[id]++
				l.runs[j].style = id
			}
		}
	}
	r.styles.unused = nil // every id just counted its runs
}

// sgr applies an SGR sequence to pen (rowSink); the result for a given
// style and sequence is remembered, so a stream that cycles through a few
// colours parses each sequence once.
func (r *scrollRing) sgr(from uint32, params []byte, pen *uv.Style) uint32 {
	t := &r.styles
	var k sgrKey
	cacheable := len(params) < len(k)-8
	if cacheable {
		binary.LittleEndian.PutUint32(k[0:], from)
		binary.LittleEndian.PutUint32(k[4:], t.genOf(from))
		copy(k[8:], params)
		k[8+len(params)] = 'm'
		if v, ok := t.sgr[k]; ok && t.genOf(v.id) == v.gen {
			*pen = t.style(v.id)
			return v.id
		}
	}
	readSGR(params, pen)
	id := r.styleID(pen)
	if cacheable && (id != 0 || pen.IsZero()) {
		if t.sgr == nil {
			t.sgr = map[sgrKey]sgrResult{}
		} else if len(t.sgr) >= maxSGRCache {
			clear(t.sgr)
		}
		t.sgr[k] = sgrResult{id, t.genOf(id)}
	}
	return id
}
