package telegram

import (
	"context"
	"errors"
	"fmt"
	"html"
	"regexp"
	"strings"
)

// Replies are sent with parse_mode HTML: the model writes Markdown, and
// Telegram's own MarkdownV2 needs every one of _*[]()~`>#+-=|{}.! escaped
// outside entities, so one stray "." or "-" in a price makes the whole
// message fail. HTML needs only &, < and > escaped; markdownToHTML
// escapes everything and then turns the common Markdown forms into tags.
// If Telegram still refuses the entities, the message is resent as plain
// text so nothing is lost.

var (
	fenceRe  = regexp.MustCompile("(?s)```[a-zA-Z0-9_+-]*\n?(.*?)```")
	codeRe   = regexp.MustCompile("`([^`\n]+)`")
	boldRe   = regexp.MustCompile(`\*\*([^*\n]+?)\*\*`)
	bold2Re  = regexp.MustCompile(`__([^_\n]+?)__`)
	strikeRe = regexp.MustCompile(`~~([^~\n]+?)~~`)
	italRe   = regexp.MustCompile(`(^|[^\w*])\*([^*\s][^*\n]*?)\*([^\w*]|$)`)
	ital2Re  = regexp.MustCompile(`(^|[^\w])_([^_\s][^_\n]*?)_([^\w]|$)`)
	linkRe   = regexp.MustCompile(`\[([^\]\n]+)\]\((https?://[^)\s"]+)\)`)
	headRe   = regexp.MustCompile(`(?m)^#{1,6}\s+(.+)$`)
	bulletRe = regexp.MustCompile(`(?m)^(\s*)[-*]\s+`)
)

// markdownToHTML converts the Markdown a model writes into Telegram HTML.
func markdownToHTML(md string) string {
	var slots []string
	keep := func(s string) string {
		slots = append(slots, s)
		return fmt.Sprintf("\x00%d\x00", len(slots)-1)
	}
	s := fenceRe.ReplaceAllStringFunc(md, func(m string) string {
		body := fenceRe.FindStringSubmatch(m)[1]
		return keep("<pre>" + html.EscapeString(strings.TrimRight(body, "\n")) + "</pre>")
	})
	s = codeRe.ReplaceAllStringFunc(s, func(m string) string {
		return keep("<code>" + html.EscapeString(codeRe.FindStringSubmatch(m)[1]) + "</code>")
	})
	s = html.EscapeString(s)
	s = headRe.ReplaceAllString(s, "<b>$1</b>")
	s = bulletRe.ReplaceAllString(s, "$1• ")
	s = linkRe.ReplaceAllString(s, `<a href="$2">$1</a>`)
	s = boldRe.ReplaceAllString(s, "<b>$1</b>")
	s = bold2Re.ReplaceAllString(s, "<b>$1</b>")
	s = strikeRe.ReplaceAllString(s, "<s>$1</s>")
	s = italRe.ReplaceAllString(s, "$1<i>$2</i>$3")
	s = ital2Re.ReplaceAllString(s, "$1<i>$2</i>$3")
	for i, v := range slots {
		s = strings.Replace(s, fmt.Sprintf("\x00%d\x00", i), v, 1)
	}
	return s
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
