package telegram

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMarkdownToTelegramHTML(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"plain text escaped", "plain 1.5 - 2 < 3 & more", "plain 1.5 - 2 &lt; 3 &amp; more"},
		{"bold and italic", "**AAPL** is *up* 2%", "<b>AAPL</b> is <i>up</i> 2%"},
		{"underscore forms", "__bold__ and _it_", "<b>bold</b> and <i>it</i>"},
		{"code span escapes", "use `a<b> & c` here", "use <code>a&lt;b&gt; &amp; c</code> here"},
		{"code span keeps markdown", "`**not bold**`", "<code>**not bold**</code>"},
		{"fenced code", "```go\nx := 1 < 2 && y > 3\n```", "<pre>x := 1 &lt; 2 &amp;&amp; y &gt; 3</pre>"},
		{"fenced code keeps markdown and blank lines", "```\n# not a heading\n\n*x*\n```", "<pre># not a heading\n\n*x*</pre>"},
		{"unclosed fence runs to the end", "```\na < b", "<pre>a &lt; b</pre>"},
		{"indented code", "    a <b>", "<pre>a &lt;b&gt;</pre>"},
		{"heading and bullets", "# Summary\n- one\n- two", "<b>Summary</b>\n• one\n• two"},
		{"ordered list keeps numbers", "3. three\n4. four", "3. three\n4. four"},
		{"nested list", "- a\n  - b\n    - c\n- d", "• a\n  • b\n    • c\n• d"},
		{"paragraphs keep their blank line", "one\n\ntwo\nthree", "one\n\ntwo\nthree"},
		{"link", "see [docs](https://x.test/a?b=1&c=2)", `see <a href="https://x.test/a?b=1&amp;c=2">docs</a>`},
		{"link with bold text", "[**AAPL** chart](https://x.test)", `<a href="https://x.test"><b>AAPL</b> chart</a>`},
		{"link to a non-web target is text", "[run](javascript:alert(1))", "run"},
		{"autolink", "<https://x.test/a?b=1&c=2>", `<a href="https://x.test/a?b=1&amp;c=2">https://x.test/a?b=1&amp;c=2</a>`},
		{"not an autolink", "<https://x.test/?a=<1>>", "&lt;https://x.test/?a=&lt;1&gt;&gt;"},
		{"quote in URL escaped", `[x](https://x.test/"onclick)`, `<a href="https://x.test/&#34;onclick">x</a>`},
		{"snake case stays", "snake_case_name stays", "snake_case_name stays"},
		{"strikethrough", "~~old~~ new", "<s>old</s> new"},
		{"lone stars stay", "2 * 3 * 4", "2 * 3 * 4"},
		{"unclosed bold stays literal", "**bold without end", "**bold without end"},
		{"unclosed italic stays literal", "price *rising", "price *rising"},
		{"nested emphasis", "***both*** and **bold *it* bold**", "<i><b>both</b></i> and <b>bold <i>it</i> bold</b>"},
		{"odd nesting (CommonMark: em in em, rendered once)", "**odd *nesting**", "*<i>odd nesting</i>"},
		{"raw HTML is text", "<b>hi</b> <script>x</script>", "&lt;b&gt;hi&lt;/b&gt; &lt;script&gt;x&lt;/script&gt;"},
		{"HTML block is text", "<div>\n<i>x</i>\n</div>", "&lt;div&gt;\n&lt;i&gt;x&lt;/i&gt;\n&lt;/div&gt;"},
		{"backslash escapes", `\*not italic\* and 1\. two`, "*not italic* and 1. two"},
		{"entities are text", "AT&amp;T &lt; &#36;5", "AT&amp;T &lt; $5"},
		{"blockquote", "> careful\n> now", "<blockquote>careful\nnow</blockquote>"},
		{"rule", "a\n\n---\n\nb", "a\n\n———\n\nb"},
		{"image as link", "![chart](https://x.test/c.png)", `<a href="https://x.test/c.png">chart</a>`},
		{"hard break", "a  \nb", "a\nb"},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := markdownToHTML(c.in)
			assert.Equal(t, c.want, got, c.in)
			requireTelegramHTML(t, got)
		})
	}
}

// Whatever the model writes, the output uses only Telegram's tags, balanced,
// with every other <, > and & escaped.
func TestMarkdownToTelegramHTMLIsAlwaysWellFormed(t *testing.T) {
	t.Parallel()
	pieces := []string{"**", "*", "_", "__", "~~", "`", "```", "[", "](", ")", "https://x.test", "<", ">", "&", "\"",
		"# ", "- ", "1. ", "> ", "\n", "\n\n", "  ", "text", "<b>", "</i>", "&amp;", "\\", "![", "|", "    "}
	seed := uint32(7)
	next := func() uint32 { seed = seed*1664525 + 1013904223; return seed >> 8 }
	for range 2000 {
		var sb strings.Builder
		for n := next()%12 + 1; n > 0; n-- {
			sb.WriteString(pieces[next()%uint32(len(pieces))])
		}
		requireTelegramHTML(t, markdownToHTML(sb.String()))
	}
}

var tagRe = regexp.MustCompile(`<(/?)([a-z]+)( href="[^"<>]*")?>`)

func requireTelegramHTML(t *testing.T, s string) {
	t.Helper()
	allowed := map[string]bool{"b": true, "i": true, "s": true, "code": true, "pre": true, "a": true, "blockquote": true}
	var stack []string
	rest := s
	for {
		loc := tagRe.FindStringSubmatchIndex(rest)
		text := rest
		if loc != nil {
			text = rest[:loc[0]]
		}
		require.NotContains(t, text, "<", "unescaped < in %q", s)
		require.NotContains(t, text, ">", "unescaped > in %q", s)
		for i := strings.Index(text, "&"); i >= 0; i = strings.Index(text, "&") {
			require.Regexp(t, `^&(amp|lt|gt|quot|#\d+);`, text[i:], "bare & in %q", s)
			text = text[i+1:]
		}
		if loc == nil {
			break
		}
		closing, name := rest[loc[2]:loc[3]] == "/", rest[loc[4]:loc[5]]
		require.True(t, allowed[name], "tag %s in %q", name, s)
		if closing {
			require.NotEmpty(t, stack, "unopened </%s> in %q", name, s)
			require.Equal(t, stack[len(stack)-1], name, "misnested in %q", s)
			stack = stack[:len(stack)-1]
		} else {
			require.Equal(t, name == "a", loc[6] >= 0, "href only on <a> in %q", s)
			stack = append(stack, name)
		}
		rest = rest[loc[1]:]
	}
	require.Empty(t, stack, "unclosed tags in %q", s)
}
