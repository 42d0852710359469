package provider

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/alice-trading/alice/core"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// Anthropic speaks the Messages API with streaming.
type Anthropic struct {
	client anthropic.Client
	model  string
	max    int
}

// NewAnthropic builds a client. bearer sends the key as a Bearer token
// (for Anthropic-compatible gateways) instead of x-api-key.
func NewAnthropic(baseURL, apiKey, model string, bearer bool, maxTokens int) *Anthropic {
	opts := []option.RequestOption{option.WithMaxRetries(1)}
	if baseURL != "" {
		opts = append(opts, option.WithBaseURL(baseURL))
	}
	if bearer {
		opts = append(opts, option.WithAuthToken(apiKey))
	} else {
		opts = append(opts, option.WithAPIKey(apiKey))
	}
	if maxTokens <= 0 {
		maxTokens = 8192
	}
	return &Anthropic{client: anthropic.NewClient(opts...), model: model, max: maxTokens}
}

// Name is the backend tag.
func (a *Anthropic) Name() string { return "anthropic" }

// Stream runs one streamed message.
func (a *Anthropic) Stream(ctx context.Context, req Request) <-chan Event {
	ch := make(chan Event, 16)
	go func() {
		defer close(ch)
		model := req.Model
		if model == "" {
			model = a.model
		}
		max := req.MaxTokens
		if max <= 0 {
			max = a.max
		}
		params := anthropic.MessageNewParams{Model: anthropic.Model(model), MaxTokens: int64(max), Messages: toAnthropicMessages(req.Messages)}
		params.Tools = toAnthropicTools(req.Tools)
		// Two cache breakpoints: tools+system, and the conversation so far.
		// Each step of the tool loop then re-reads the prefix from cache.
		if req.System != "" {
			params.System = []anthropic.TextBlockParam{{Text: req.System, CacheControl: anthropic.NewCacheControlEphemeralParam()}}
		}
		if n := len(params.Messages); n > 0 {
			if blocks := params.Messages[n-1].Content; len(blocks) > 0 {
				if cc := blocks[len(blocks)-1].GetCacheControl(); cc != nil {
					*cc = anthropic.NewCacheControlEphemeralParam()
				}
			}
		}
		stream := a.client.Messages.NewStreaming(ctx, params)
		defer stream.Close()
		msg := anthropic.Message{}
		for stream.Next() {
			ev := stream.Current()
			if err := msg.Accumulate(ev); err != nil {
				emit(ctx, ch, Event{Kind: EventError, Err: err})
				return
			}
			if ev.Type == "content_block_delta" && ev.Delta.Type == "text_delta" && ev.Delta.Text != "" {
				if !emit(ctx, ch, Event{Kind: EventText, Text: ev.Delta.Text}) {
					return
				}
			}
		}
		if err := stream.Err(); err != nil {
			if ctx.Err() == nil {
				emit(ctx, ch, Event{Kind: EventError, Err: describe(err)})
			}
			return
		}
		if msg.ID == "" {
			emit(ctx, ch, Event{Kind: EventError, Err: errors.New("the server returned an empty stream")})
			return
		}
		for _, b := range msg.Content {
			if b.Type == "tool_use" {
				input, bad := toolInput(string(b.Input))
				if !emit(ctx, ch, Event{Kind: EventToolCall, ToolCall: ToolCall{ID: b.ID, Name: b.Name, Input: input, InvalidInput: bad}}) {
					return
				}
			}
		}
		var usage *Usage
		if u := msg.Usage; u.InputTokens > 0 || u.OutputTokens > 0 {
			usage = &Usage{InputTokens: u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens, OutputTokens: u.OutputTokens,
				CacheRead: u.CacheReadInputTokens, CacheWrite: u.CacheCreationInputTokens}
		}
		emit(ctx, ch, Event{Kind: EventDone, StopReason: string(msg.StopReason), Usage: usage})
	}()
	return ch
}

// toAnthropicTools converts tool schemas, keeping every schema keyword
// (additionalProperties, $defs…) besides properties and required.
func toAnthropicTools(tools []core.Tool) []anthropic.ToolUnionParam {
	var out []anthropic.ToolUnionParam
	for _, t := range tools {
		s := schemaMap(t)
		schema := anthropic.ToolInputSchemaParam{Properties: s["properties"], ExtraFields: map[string]any{}}
		if r, ok := s["required"].([]any); ok {
			for _, v := range r {
				if name, ok := v.(string); ok {
					schema.Required = append(schema.Required, name)
				}
			}
		}
		for k, v := range s {
			if k != "properties" && k != "required" && k != "type" {
				schema.ExtraFields[k] = v
			}
		}
		tp := anthropic.ToolParam{Name: t.Name, Description: anthropic.String(t.Description), InputSchema: schema}
		out = append(out, anthropic.ToolUnionParam{OfTool: &tp})
	}
	return out
}

func toAnthropicMessages(msgs []Message) []anthropic.MessageParam {
	var out []anthropic.MessageParam
	for _, m := range msgs {
		var blocks []anthropic.ContentBlockParamUnion
		if m.Role == RoleAssistant {
			if m.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
			for _, tc := range m.ToolCalls {
				var in any = map[string]any{}
				_ = json.Unmarshal(tc.Input, &in)
				blocks = append(blocks, anthropic.NewToolUseBlock(tc.ID, in, tc.Name))
			}
			if len(blocks) > 0 {
				out = append(out, anthropic.NewAssistantMessage(blocks...))
			}
			continue
		}
		for _, r := range m.ToolResults {
			blocks = append(blocks, anthropic.NewToolResultBlock(r.ID, r.Content, r.IsError))
		}
		if m.Text != "" {
			blocks = append(blocks, anthropic.NewTextBlock(m.Text))
		}
		if len(blocks) > 0 {
			out = append(out, anthropic.NewUserMessage(blocks...))
		}
	}
	return out
}
