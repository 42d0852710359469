// Package news collects RSS/Atom headlines into a persistent JSONL archive
// and lets the agent search it with globNews / grepNews / readNews. The
// collector re-reads news.json every cycle so feed edits apply without a
// restart; the archive keeps retentionDays of history on disk and the most
// recent maxInMemory items in memory for fast queries.
package news

import (
	"html"
	"strings"
	"time"
	"unicode"
)

// Item is one archived headline; it is also the archive.jsonl line format.
type Item struct {
	Time     time.Time `json:"time"`
	Title    string    `json:"title"`
	Content  string    `json:"content"`
	Link     string    `json:"link,omitempty"`
	GUID     string    `json:"guid,omitempty"`
	Metadata Metadata  `json:"metadata"`
}

// Metadata says where an item came from.
type Metadata struct {
	Source     string   `json:"source,omitempty"`
	Feed       string   `json:"feed,omitempty"`
	Categories []string `json:"categories,omitempty"`
}

// Key is the dedup identity: the feed's GUID, else the link, else the
// title (some feeds have neither GUIDs nor links).
func (it Item) Key() string {
	switch {
	case it.GUID != "":
		return "g:" + it.GUID
	case it.Link != "":
		return "l:" + it.Link
	}
	return "t:" + it.Metadata.Feed + "|" + it.Title
}

// metadataKeys are the keys metadataFilter accepts.
var metadataKeys = []string{"source", "feed", "category"}

// matches reports whether the item satisfies every key=value of filter,
// case-insensitively; "category" (or "categories") matches any category.
func (m Metadata) matches(key, value string) bool {
	switch strings.ToLower(key) {
	case "source":
		return strings.EqualFold(m.Source, value)
	case "feed":
		return strings.EqualFold(m.Feed, value)
	case "category", "categories":
		for _, c := range m.Categories {
			if strings.EqualFold(c, value) {
				return true
			}
		}
	}
	return false
}

// plainText strips HTML tags and entities and collapses whitespace: feeds
// put markup in descriptions and the model only needs the words.
func plainText(s string) string {
	var b strings.Builder
	inTag := false
	for _, r := range s {
		switch {
		case r == '<':
			inTag = true
			b.WriteRune(' ')
		case r == '>' && inTag:
			inTag = false
		case !inTag:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.FieldsFunc(html.UnescapeString(b.String()), unicode.IsSpace), " ")
}
