package kit

// LineCache remembers how each line of the last frame was transformed (cut,
// padded, framed), so a redraw that changed a few lines of a large screen —
// a keystroke's echo in an attached session — transforms only those. It
// belongs to one caller and one View at a time (Bubble Tea calls View from
// its event loop only).
type LineCache struct {
	key     string
	in, out []string
}

// Map returns f applied to every line, reusing the last result for a line
// whose text is unchanged at the same index while key (everything else f
// depends on, such as widths and styles) is the same. The returned slice is
// the cache's: read it, do not keep or change it.
func (c *LineCache) Map(key string, lines []string, f func(string) string) []string {
	reuse := key == c.key && len(c.in) == len(lines)
	out := make([]string, len(lines))
	for i, l := range lines {
		if reuse && c.in[i] == l {
			out[i] = c.out[i]
			continue
		}
		out[i] = f(l)
	}
	c.key, c.in, c.out = key, append(c.in[:0:0], lines...), out
	return out
}
