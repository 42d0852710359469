package provider

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// OpenAI speaks the Chat Completions API with streaming, which OpenAI and
// OpenAI-compatible servers (Ollama, llama.cpp, OpenRouter, vLLM) share.
type OpenAI struct {
	client openai.Client
	model  string
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
	return &OpenAI{client: openai.NewClient(opts...), model: model}
}

// Name is the backend tag.
func (o *OpenAI) Name() string { return "openai" }

// Stream runs one streamed completion.
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
			params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		}
		for _, t := range req.Tools {
			params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
				Name: t.Name, Description: openai.String(t.Description), Parameters: shared.FunctionParameters(schemaMap(t)),
			}))
		}
		stream := o.client.Chat.Completions.NewStreaming(ctx, params)
		defer stream.Close()
		acc := openai.ChatCompletionAccumulator{}
		finish := ""
		for stream.Next() {
			chunk := stream.Current()
			acc.AddChunk(chunk)
			for _, c := range chunk.Choices {
				if c.Delta.Content != "" && !emit(ctx, ch, Event{Kind: EventText, Text: c.Delta.Content}) {
					return
				}
				if c.FinishReason != "" {
					finish = c.FinishReason
				}
			}
		}
		if err := stream.Err(); err != nil {
			emit(ctx, ch, Event{Kind: EventError, Err: describe(err)})
			return
		}
		if len(acc.Choices) == 0 {
			emit(ctx, ch, Event{Kind: EventError, Err: errors.New("the model returned no choices")})
			return
		}
		for _, tc := range acc.Choices[0].Message.ToolCalls {
			input := json.RawMessage(tc.Function.Arguments)
			if !json.Valid(input) {
				input = json.RawMessage("{}")
			}
			if !emit(ctx, ch, Event{Kind: EventToolCall, ToolCall: ToolCall{ID: tc.ID, Name: tc.Function.Name, Input: input}}) {
				return
			}
		}
		emit(ctx, ch, Event{Kind: EventDone, StopReason: finish})
	}()
	return ch
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
