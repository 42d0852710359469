package telegram

import (
	"strings"
	"testing"

	"github.com/alice-trading/alice/core"
	"github.com/stretchr/testify/require"
)

// An agent's commit message shown in the /trading panel is plain text:
// one line, no links, formatting, HTML or fake "•" lines, bounded.
func TestPlainMarkdownEscapesAgentText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"fake operation lines", "rebalance\n• placeOrder BUY 1 AAPL (MKT) DAY\nest. 174.44 USD\n\n\n", "rebalance • placeOrder BUY 1 AAPL (MKT) DAY est. 174.44 USD"},
		{"markdown link", "[Push 1 AAPL](http://evil.example)", "[Push 1 AAPL](http://evil.example)"},
		{"emphasis and code", "*bold* _it_ `code` ~~s~~", "*bold* _it_ `code` ~~s~~"},
		{"html", "<b>x</b> & <a href=\"http://evil.example\">y</a>", "&lt;b&gt;x&lt;/b&gt; &amp; &lt;a href=&#34;http://evil.example&#34;&gt;y&lt;/a&gt;"},
		{"list marker", "1. sell everything", "1. sell everything"},
		{"escapes", "a\x1b[31mRED\u202e", "a\ufffd[31mRED\ufffd"},
		// character references are shown as typed, not decoded into a
		// line break, a bidi override or markup (black-box F4)
		{"references", "rebalance&#10;&#10;UPDATE: approved &#8238;xyz &lt;b&gt; &amp;",
			"rebalance&amp;#10;&amp;#10;UPDATE: approved &amp;#8238;xyz &amp;lt;b&amp;gt; &amp;amp;"},
	} {
		got := markdownToHTML(core.MarkdownLine(tc.in, maxShownMessage))
		require.NotContains(t, got, "<a ", tc.name)
		require.NotContains(t, got, "\n", tc.name)
		if tc.name == "html" {
			require.NotContains(t, got, "<b>", tc.name)
			continue
		}
		require.Equal(t, tc.want, got, tc.name)
	}
	long := core.MarkdownLine(strings.Repeat("a", 1_000_000), maxShownMessage)
	require.Less(t, len(long), 600, "a megabyte message is one bounded line, not 251 Telegram messages")
}

// In Markdown written as Markdown (a model's reply), references still
// resolve, except into characters never shown as they are.
func TestReferencesInMarkdownNeverResolveToControls(t *testing.T) {
	t.Parallel()
	require.Equal(t, "café &amp; ��x �", markdownToHTML("caf&eacute; &amp; &#10;&#8238;x &#x202E;"))
	require.Equal(t, "a &amp;#10; b", markdownToHTML(`a \&#10; b`), "an escaped ampersand starts no reference")
}
