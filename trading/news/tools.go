package news

import (
	"context"
	"encoding/json"

	"github.com/alice-trading/alice/core"
)

// RegisterTools publishes globNews, grepNews and readNews over the
// searcher. The lead registers them only when news.json is enabled.
func RegisterTools(reg core.ToolRegistry, s *Searcher) {
	const common = `"lookback":{"type":"string","description":"only items newer than this: 1h, 12h, 1d, 7d (default: all)"},
		"metadataFilter":{"type":"object","additionalProperties":{"type":"string"},"description":"exact, case-insensitive match on source, feed or category"},
		"limit":{"type":"integer","minimum":1,"maximum":500,"description":"max rows (default 50)"}`
	reg.Register(
		core.Tool{
			Name:  "globNews",
			Group: "news",
			Description: "List news headlines whose title matches a case-insensitive regex, newest first. " +
				"Searches the 500 most recent items within lookback; the returned index is for readNews (with the same lookback).",
			InputSchema: core.Schema(`{"type":"object","properties":{
				"pattern":{"type":"string","description":"regex matched against titles, e.g. fed|rate"},` + common + `},"required":["pattern"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var a struct {
					Pattern string `json:"pattern"`
					Query
					Limit int `json:"limit"`
				}
				if err := core.DecodeArgs(args, &a); err != nil {
					return nil, err
				}
				return s.Glob(a.Pattern, a.Query, a.Limit)
			},
		},
		core.Tool{
			Name:  "grepNews",
			Group: "news",
			Description: "Search news titles and bodies with a case-insensitive regex and show the first match in context, newest first. " +
				"Searches the 500 most recent items within lookback; the returned index is for readNews (with the same lookback).",
			InputSchema: core.Schema(`{"type":"object","properties":{
				"pattern":{"type":"string","description":"regex matched against title and content"},
				"contextChars":{"type":"integer","minimum":0,"maximum":2000,"description":"characters of context each side (default 50)"},` + common + `},"required":["pattern"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var a struct {
					Pattern string `json:"pattern"`
					Query
					ContextChars *int `json:"contextChars"`
					Limit        int  `json:"limit"`
				}
				if err := core.DecodeArgs(args, &a); err != nil {
					return nil, err
				}
				ctx := 50
				if a.ContextChars != nil {
					ctx = *a.ContextChars
				}
				return s.Grep(a.Pattern, a.Query, ctx, a.Limit)
			},
		},
		core.Tool{
			Name:        "readNews",
			Group:       "news",
			Description: "Read one news item in full by the index globNews/grepNews returned; pass the same lookback as that call.",
			InputSchema: core.Schema(`{"type":"object","properties":{
				"index":{"type":"integer","minimum":0},
				"lookback":{"type":"string","description":"must match the lookback of the globNews/grepNews call"}},"required":["index"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var a struct {
					Index    *int   `json:"index"`
					Lookback string `json:"lookback"`
				}
				if err := core.DecodeArgs(args, &a); err != nil {
					return nil, err
				}
				if a.Index == nil {
					return nil, errIndexRequired
				}
				return s.Read(*a.Index, a.Lookback)
			},
		},
	)
}
