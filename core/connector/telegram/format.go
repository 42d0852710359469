package telegram

import (
	"bytes"
	"context"
	"errors"
	"html"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alice-trading/alice/core"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Replies are sent with parse_mode HTML: the model writes Markdown, and
// Telegram's own MarkdownV2 needs every one of _*[]()~`>#+-=|{}.! escaped
// outside entities, so one stray "." or "-" in a price makes the whole
// message fail. markdownToHTML parses the Markdown with goldmark
// (CommonMark plus ~~strikethrough~~) and renders it to the small HTML
// subset Telegram accepts: <b> <i> <s> <code> <pre> <a href> <blockquote>.
// Everything else is text and escaped (&, <, >, "), including HTML the
// model typed itself. If Telegram still refuses the entities, the message
// is resent as plain text so nothing is lost.

// markdownToHTML converts the Markdown a model writes into Telegram HTML.
func markdownToHTML(md string) string {
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.Strikethrough)).Parser().Parse(text.NewReader(src))
	r := &tgRenderer{src: src, open: map[string]int{}}
	r.blocks(doc, 0)
	return strings.TrimRight(r.sb.String(), "\n ")
}

// tgRenderer writes one document.
type tgRenderer struct {
	src  []byte
	sb   strings.Builder
	open map[string]int // inline tags currently open
}

// blocks renders the block children of n, separated by a newline, or a
// blank line where the source had one. indent is the list nesting depth.
func (r *tgRenderer) blocks(n ast.Node, indent int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c != n.FirstChild() {
			r.sb.WriteString("\n")
			if c.HasBlankPreviousLines() {
				r.sb.WriteString("\n")
			}
		}
		r.block(c, indent)
	}
}

func (r *tgRenderer) block(n ast.Node, indent int) {
	switch n := n.(type) {
	case *ast.Heading:
		r.sb.WriteString("<b>")
		r.inlines(n)
		r.sb.WriteString("</b>")
	case *ast.Paragraph, *ast.TextBlock:
		r.inlines(n)
	case *ast.List:
		r.list(n, indent)
	case *ast.Blockquote:
		r.sb.WriteString("<blockquote>")
		r.blocks(n, indent)
		r.sb.WriteString("</blockquote>")
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		r.sb.WriteString("<pre>")
		r.sb.WriteString(html.EscapeString(strings.TrimRight(r.lines(n), "\n")))
		r.sb.WriteString("</pre>")
	case *ast.HTMLBlock:
		raw := r.lines(n)
		if n.HasClosure() {
			raw += string(n.ClosureLine.Value(r.src))
		}
		r.sb.WriteString(html.EscapeString(strings.TrimRight(raw, "\n")))
	case *ast.ThematicBreak:
		r.sb.WriteString("———")
	default:
		r.blocks(n, indent)
	}
}

// list renders items one per line: "• " or "N. ", nested lists indented.
func (r *tgRenderer) list(l *ast.List, indent int) {
	num := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		if item != l.FirstChild() {
			r.sb.WriteString("\n")
		}
		r.sb.WriteString(strings.Repeat("  ", indent))
		if l.IsOrdered() {
			r.sb.WriteString(strconv.Itoa(num) + string(l.Marker) + " ")
			num++
		} else {
			r.sb.WriteString("• ")
		}
		for c := item.FirstChild(); c != nil; c = c.NextSibling() {
			if c != item.FirstChild() {
				r.sb.WriteString("\n")
				if _, nested := c.(*ast.List); !nested {
					r.sb.WriteString(strings.Repeat("  ", indent+1))
				}
			}
			r.block(c, indent+1)
		}
	}
}

// lines is a block's raw lines (code, HTML).
func (r *tgRenderer) lines(n ast.Node) string {
	var sb strings.Builder
	ls := n.Lines()
	for i := 0; i < ls.Len(); i++ {
		seg := ls.At(i)
		sb.Write(seg.Value(r.src))
	}
	return sb.String()
}

func (r *tgRenderer) inlines(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inline(c)
	}
}

func (r *tgRenderer) inline(n ast.Node) {
	switch n := n.(type) {
	case *ast.Text:
		v := n.Segment.Value(r.src)
		if !n.IsRaw() {
			v = textValue(v)
		}
		r.sb.WriteString(html.EscapeString(string(v)))
		if n.HardLineBreak() || n.SoftLineBreak() {
			r.sb.WriteString("\n")
		}
	case *ast.String:
		r.sb.WriteString(html.EscapeString(string(n.Value)))
	case *ast.CodeSpan:
		r.sb.WriteString("<code>")
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				r.sb.WriteString(html.EscapeString(string(t.Segment.Value(r.src))))
			} else if s, ok := c.(*ast.String); ok {
				r.sb.WriteString(html.EscapeString(string(s.Value)))
			}
		}
		r.sb.WriteString("</code>")
	case *ast.Emphasis:
		tag := "i"
		if n.Level >= 2 {
			tag = "b"
		}
		r.wrap(tag, n)
	case *extast.Strikethrough:
		r.wrap("s", n)
	case *ast.Link:
		r.link(string(n.Destination), n)
	case *ast.AutoLink:
		url := string(n.URL(r.src))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(url, "mailto:") {
			url = "mailto:" + url
		}
		r.sb.WriteString(`<a href="` + html.EscapeString(url) + `">` + html.EscapeString(string(n.Label(r.src))) + "</a>")
	case *ast.Image:
		r.link(string(n.Destination), n)
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			r.sb.WriteString(html.EscapeString(string(seg.Value(r.src))))
		}
	default:
		r.inlines(n)
	}
}

// wrap renders n inside tag; a tag already open is not opened again
// (Telegram rejects <i> inside <i>).
func (r *tgRenderer) wrap(tag string, n ast.Node) {
	if r.open[tag] > 0 {
		r.inlines(n)
		return
	}
	r.open[tag]++
	r.sb.WriteString("<" + tag + ">")
	r.inlines(n)
	r.sb.WriteString("</" + tag + ">")
	r.open[tag]--
}

// link renders a link (or an image, as a link to it) when its target is a
// web, mail or tg: address Telegram will open; otherwise only its text.
func (r *tgRenderer) link(dest string, n ast.Node) {
	l := strings.ToLower(dest)
	if !strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "mailto:") && !strings.HasPrefix(l, "tg://") {
		r.inlines(n)
		return
	}
	r.sb.WriteString(`<a href="` + html.EscapeString(dest) + `">`)
	r.inlines(n)
	r.sb.WriteString("</a>")
}

// sendRich sends one chunk as HTML, falling back to plain text when
// Telegram cannot parse the entities.
func (c *client) sendRich(ctx context.Context, chatID int64, text string, kb *InlineKeyboard) error {
	p := map[string]any{"chat_id": chatID, "text": markdownToHTML(text), "parse_mode": "HTML"}
	if kb != nil {
		p["reply_markup"] = kb
	}
	err := c.call(ctx, "sendMessage", p, nil)
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.Code == 400 && strings.Contains(strings.ToLower(apiErr.Description), "entit") {
		_, err = c.sendMessage(ctx, chatID, text, kb)
	}
	return err
}

// maxShownMessage bounds a commit message shown in the /trading panel
// (the trading model refuses longer ones; older stored commits may hold
// more).
const maxShownMessage = 500

// textValue is a text node's value as CommonMark reads it, in one pass: a
// backslash-escaped punctuation character is itself, literally, and only
// the text between escapes has its entity and character references
// resolved. (Unescaping first and resolving after turned an escaped
// "\&\#10\;", how alice shows an agent's "&#10;" literally, into a line
// break.) A reference that resolves to a character never shown as it is
// (core.UnsafeRune: control, line separator, bidirectional override)
// becomes U+FFFD.
func textValue(v []byte) []byte {
	out := make([]byte, 0, len(v))
	start := 0
	flush := func(end int) {
		raw := v[start:end]
		res := util.ResolveEntityNames(util.ResolveNumericReferences(raw))
		if bytes.Equal(res, raw) {
			out = append(out, raw...)
			return
		}
		for _, r := range string(res) {
			if core.UnsafeRune(r) {
				r = unicode.ReplacementChar
			}
			out = utf8.AppendRune(out, r)
		}
	}
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && util.IsPunct(v[i+1]) {
			flush(i)
			out = append(out, v[i+1])
			i++
			start = i + 1
		}
	}
	flush(len(v))
	return out
}
