// Package mdterm renders Markdown for the terminal: goldmark parses it
// (CommonMark plus GFM tables, strikethrough and task lists) and lipgloss
// styles it, word-wrapped to a width. It replaces glamour in alice: glamour
// formats some elements through text/template, whose reflective method
// calls switch off the linker's dead-code elimination of methods and cost
// the release binary ~40 MB. The look follows glamour's dark and light
// styles closely but not exactly.
package mdterm

import (
	"image/color"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Options choose the palette and the width.
type Options struct {
	// Width wraps text (0: 80). Lines never exceed it unless a table or a
	// code line cannot be narrowed.
	Width int
	// Light picks colours for a light terminal background.
	Light bool
}

// palette is the colours of one style.
type palette struct {
	heading, code, codeBg, link, quote, rule, muted color.Color
}

func paletteFor(light bool) palette {
	if light {
		return palette{heading: lipgloss.Color("27"), code: lipgloss.Color("160"), codeBg: lipgloss.Color("254"),
			link: lipgloss.Color("27"), quote: lipgloss.Color("242"), rule: lipgloss.Color("250"), muted: lipgloss.Color("244")}
	}
	return palette{heading: lipgloss.Color("39"), code: lipgloss.Color("203"), codeBg: lipgloss.Color("236"),
		link: lipgloss.Color("30"), quote: lipgloss.Color("245"), rule: lipgloss.Color("240"), muted: lipgloss.Color("244")}
}

// margin is the left margin of the document, as glamour's styles have.
const margin = 2

// Render renders md. It never fails: input goldmark cannot make sense of
// is shown as text.
func Render(md string, o Options) string {
	if o.Width <= 0 {
		o.Width = 80
	}
	src := []byte(md)
	p := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList)).Parser()
	doc := p.Parse(text.NewReader(src))
	r := &renderer{src: src, pal: paletteFor(o.Light), width: max(o.Width-margin, 10)}
	out := r.blocks(doc, r.width)
	var sb strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if l != "" {
			sb.WriteString(strings.Repeat(" ", margin))
		}
		sb.WriteString(l)
		sb.WriteString("\n")
	}
	return "\n" + sb.String()
}

type renderer struct {
	src   []byte
	pal   palette
	width int
}

// blocks renders n's block children, one blank line apart, within width.
func (r *renderer) blocks(n ast.Node, width int) string {
	var parts []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if s := r.block(c, width); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

func (r *renderer) block(n ast.Node, width int) string {
	switch n := n.(type) {
	case *ast.Heading:
		st := lipgloss.NewStyle().Bold(true).Foreground(r.pal.heading)
		prefix := ""
		if n.Level > 1 {
			prefix = strings.Repeat("#", n.Level) + " "
		}
		return wrap(r.inlines(n, st), width, prefix, render(st, prefix), strings.Repeat(" ", len(prefix)))
	case *ast.Paragraph, *ast.TextBlock:
		return wrap(r.inlines(n, lipgloss.NewStyle()), width, "", "", "")
	case *ast.List:
		return r.list(n, width)
	case *ast.Blockquote:
		bar := lipgloss.NewStyle().Foreground(r.pal.quote).Render("│ ")
		inner := r.blocks(n, width-2)
		return prefixLines(inner, bar, bar)
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
		st := lipgloss.NewStyle().Foreground(r.pal.code)
		if _, html := n.(*ast.HTMLBlock); html {
			st = lipgloss.NewStyle()
		}
		code := strings.TrimRight(r.lines(n), "\n")
		var sb strings.Builder
		for i, l := range strings.Split(code, "\n") {
			if i > 0 {
				sb.WriteString("\n")
			}
			l = strings.ReplaceAll(l, "\t", "    ")
			sb.WriteString(st.Render(ansi.Truncate(l, width, "…")))
		}
		return sb.String()
	case *ast.ThematicBreak:
		return lipgloss.NewStyle().Foreground(r.pal.rule).Render(strings.Repeat("─", min(width, 40)))
	case *extast.Table:
		return r.table(n, width)
	default:
		return r.blocks(n, width)
	}
}

// list renders items with "• " or "N. " and a hanging indent.
func (r *renderer) list(l *ast.List, width int) string {
	var items []string
	num := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if l.IsOrdered() {
			marker = strconv.Itoa(num) + string(l.Marker) + " "
			num++
		}
		indent := strings.Repeat(" ", ansi.StringWidth(marker))
		var parts []string
		for c := item.FirstChild(); c != nil; c = c.NextSibling() {
			parts = append(parts, r.block(c, width-len(indent)))
		}
		sep := "\n"
		if !l.IsTight {
			sep = "\n\n"
		}
		items = append(items, prefixLines(strings.Join(parts, sep), marker, indent))
	}
	if l.IsTight {
		return strings.Join(items, "\n")
	}
	return strings.Join(items, "\n\n")
}

// table renders a GFM table with a rounded border, as wide as it needs up
// to width.
func (r *renderer) table(t *extast.Table, width int) string {
	var header []string
	var rows [][]string
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, r.inlines(cell, lipgloss.NewStyle()))
		}
		if _, ok := row.(*extast.TableHeader); ok {
			header = cells
		} else {
			rows = append(rows, cells)
		}
	}
	return renderTable(header, rows, t.Alignments, width, lipgloss.NewStyle().Foreground(r.pal.rule), lipgloss.NewStyle().Bold(true))
}

// lines is a block's raw lines (code, HTML).
func (r *renderer) lines(n ast.Node) string {
	var sb strings.Builder
	ls := n.Lines()
	for i := 0; i < ls.Len(); i++ {
		seg := ls.At(i)
		sb.Write(seg.Value(r.src))
	}
	if h, ok := n.(*ast.HTMLBlock); ok && h.HasClosure() {
		sb.Write(h.ClosureLine.Value(r.src))
	}
	return sb.String()
}

// inlines renders n's inline children, each text run styled by st plus
// what its ancestors add (so nesting never resets an outer style).
func (r *renderer) inlines(n ast.Node, st lipgloss.Style) string {
	var sb strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		sb.WriteString(r.inline(c, st))
	}
	return sb.String()
}

func (r *renderer) inline(n ast.Node, st lipgloss.Style) string {
	switch n := n.(type) {
	case *ast.Text:
		v := n.Segment.Value(r.src)
		if !n.IsRaw() {
			v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
		}
		s := render(st, string(v))
		switch {
		case n.HardLineBreak():
			s += "\n"
		case n.SoftLineBreak():
			s += " "
		}
		return s
	case *ast.String:
		return render(st, string(n.Value))
	case *ast.CodeSpan:
		var sb strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				sb.Write(t.Segment.Value(r.src))
			}
		}
		return render(st.Foreground(r.pal.code).Background(r.pal.codeBg), " "+sb.String()+" ")
	case *ast.Emphasis:
		if n.Level >= 2 {
			return r.inlines(n, st.Bold(true))
		}
		return r.inlines(n, st.Italic(true))
	case *extast.Strikethrough:
		return r.inlines(n, st.Strikethrough(true))
	case *extast.TaskCheckBox:
		if n.IsChecked {
			return render(st, "[✓] ")
		}
		return render(st, "[ ] ")
	case *ast.Link:
		label := r.inlines(n, st.Foreground(r.pal.link))
		dest := string(n.Destination)
		if dest == "" || ansi.Strip(label) == dest {
			return label
		}
		return label + " " + render(st.Foreground(r.pal.muted), dest)
	case *ast.AutoLink:
		return render(st.Foreground(r.pal.link), string(n.URL(r.src)))
	case *ast.Image:
		alt := ansi.Strip(r.inlines(n, lipgloss.NewStyle()))
		return render(st.Foreground(r.pal.muted), "Image: "+alt+" → "+string(n.Destination))
	case *ast.RawHTML:
		var sb strings.Builder
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			sb.Write(seg.Value(r.src))
		}
		return render(st, sb.String())
	default:
		return r.inlines(n, st)
	}
}

// render styles s, leaving an unstyled run as it is.
func render(st lipgloss.Style, s string) string {
	if s == "" {
		return ""
	}
	return st.Render(s)
}

// wrap word-wraps s to width with first before the first line and rest
// before the others (plain is first's unstyled width source).
func wrap(s string, width int, plain, first, rest string) string {
	w := max(width-ansi.StringWidth(plain), 1)
	return prefixLines(ansi.Wrap(s, w, " "), first, rest)
}

// prefixLines puts first before the first line and rest before the others.
func prefixLines(s, first, rest string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if l == "" && i > 0 {
			lines[i] = strings.TrimRight(p, " ")
			continue
		}
		lines[i] = p + l
	}
	return strings.Join(lines, "\n")
}

// Renderer holds options for callers that keep a renderer per width (the
// TUI panes).
type Renderer struct{ o Options }

// New returns a renderer with o.
func New(o Options) *Renderer { return &Renderer{o: o} }

// Render renders md with the renderer's options.
func (r *Renderer) Render(md string) string { return Render(md, r.o) }
