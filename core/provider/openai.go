package provider

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// OpenAI speaks the Chat Completions API with streaming, which OpenAI and
// OpenAI-compatible servers (Ollama, llama.cpp, OpenRouter, vLLM) share.
type OpenAI struct {
	client openai.Client
	model  string
	// compat is true for a custom base URL: such servers understand the
	// classic max_tokens but not always max_completion_tokens.
	compat bool
}

// NewOpenAI builds a client; baseURL like "http://127.0.0.1:11434/v1" or
// empty for api.openai.com.
func NewOpenAI(baseURL, apiKey, model string) *OpenAI {
	opts := []option.RequestOption{option.WithMaxRetries(1)}
	if baseURL != "" {
		opts = append(opts, option.WithBaseURL(strings.TrimRight(baseURL, "/")+"/"))
	}
	if apiKey == "" {
		apiKey = "none" // local servers ignore it; the SDK requires one
	}
	opts = append(opts, option.WithAPIKey(apiKey))
	return &OpenAI{client: openai.NewClient(opts...), model: model, compat: baseURL != ""}
}

// Name is the backend tag.
func (o *OpenAI) Name() string { return "openai" }

// Stream runs one streamed completion. Text deltas are forwarded as they
// arrive; tool calls are assembled from their deltas and emitted once the
// stream ends, then EventDone.
func (o *OpenAI) Stream(ctx context.Context, req Request) <-chan Event {
	ch := make(chan Event, 16)
	go func() {
		defer close(ch)
		model := req.Model
		if model == "" {
			model = o.model
		}
		params := openai.ChatCompletionNewParams{Model: shared.ChatModel(model), Messages: toOpenAIMessages(req)}
		if req.MaxTokens > 0 {
			if o.compat {
				params.MaxTokens = openai.Int(int64(req.MaxTokens))
			} else {
				params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
			}
		}
		params.Tools = toOpenAITools(req)
		// Ask for the token count in the last chunk (cost accounting).
		params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
		stream := o.client.Chat.Completions.NewStreaming(ctx, params)
		defer stream.Close()
		var calls toolCallAssembler
		var usage *Usage
		finish, chunks := "", 0
		for stream.Next() {
			chunk := stream.Current()
			chunks++
			if u := chunk.Usage; u.PromptTokens > 0 || u.CompletionTokens > 0 {
				usage = &Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, CacheRead: u.PromptTokensDetails.CachedTokens}
			}
			for _, c := range chunk.Choices {
				if c.Index != 0 {
					continue // n>1 is never requested
				}
				if c.Delta.Content != "" && !emit(ctx, ch, Event{Kind: EventText, Text: c.Delta.Content}) {
					return
				}
				for _, d := range c.Delta.ToolCalls {
					calls.add(d.Index, d.ID, d.Function.Name, d.Function.Arguments)
				}
				if c.FinishReason != "" {
					finish = c.FinishReason
				}
			}
		}
		if err := stream.Err(); err != nil {
			if ctx.Err() == nil {
				emit(ctx, ch, Event{Kind: EventError, Err: describe(err)})
			}
			return
		}
		if chunks == 0 {
			emit(ctx, ch, Event{Kind: EventError, Err: errors.New("the server returned an empty stream")})
			return
		}
		for _, tc := range calls.done() {
			if !emit(ctx, ch, Event{Kind: EventToolCall, ToolCall: tc}) {
				return
			}
		}
		emit(ctx, ch, Event{Kind: EventDone, StopReason: finish, Usage: usage})
	}()
	return ch
}

// toolCallAssembler joins streamed tool-call deltas. Calls are keyed by
// their index; a delta that brings a different id at an index already in
// use starts a new call (some compatible servers send every call with
// index 0), and calls without an id get a generated one.
type toolCallAssembler struct {
	calls []*partialCall
	byIdx map[int64]*partialCall
}

type partialCall struct {
	id, name string
	args     strings.Builder
}

func (a *toolCallAssembler) add(index int64, id, name, args string) {
	if a.byIdx == nil {
		a.byIdx = map[int64]*partialCall{}
	}
	cur, ok := a.byIdx[index]
	if !ok || (id != "" && cur.id != "" && id != cur.id) {
		cur = &partialCall{}
		a.byIdx[index] = cur
		a.calls = append(a.calls, cur)
	}
	if id != "" {
		cur.id = id
	}
	if name != "" {
		cur.name = name
	}
	cur.args.WriteString(args)
}

func (a *toolCallAssembler) done() []ToolCall {
	out := make([]ToolCall, 0, len(a.calls))
	for _, c := range a.calls {
		if c.name == "" {
			continue
		}
		id := c.id
		if id == "" {
			id = "call_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:16]
		}
		in, bad := toolInput(c.args.String())
		out = append(out, ToolCall{ID: id, Name: c.name, Input: in, InvalidInput: bad})
	}
	return out
}

func toOpenAITools(req Request) []openai.ChatCompletionToolUnionParam {
	var out []openai.ChatCompletionToolUnionParam
	for _, t := range req.Tools {
		out = append(out, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: t.Name, Description: openai.String(t.Description), Parameters: shared.FunctionParameters(schemaMap(t)),
		}))
	}
	return out
}

func toOpenAIMessages(req Request) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	if req.System != "" {
		out = append(out, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleAssistant:
			a := openai.ChatCompletionAssistantMessageParam{}
			if m.Text != "" {
				a.Content.OfString = openai.String(m.Text)
			}
			for _, tc := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: tc.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: string(tc.Input)}},
				})
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		default:
			for _, r := range m.ToolResults {
				out = append(out, openai.ToolMessage(r.Content, r.ID))
			}
			if m.Text != "" {
				out = append(out, openai.UserMessage(m.Text))
			}
		}
	}
	return out
}
