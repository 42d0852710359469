package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/alice-trading/alice/core/httpjson"
)

// The subset of the Bot API types the connector reads.
type (
	// User is a Telegram user or bot.
	User struct {
		ID        int64  `json:"id"`
		IsBot     bool   `json:"is_bot"`
		FirstName string `json:"first_name"`
		Username  string `json:"username,omitempty"`
	}
	// Chat is where a message was sent.
	Chat struct {
		ID   int64  `json:"id"`
		Type string `json:"type"`
	}
	// Message is an incoming or sent message.
	Message struct {
		MessageID int64  `json:"message_id"`
		From      *User  `json:"from,omitempty"`
		Chat      Chat   `json:"chat"`
		Date      int64  `json:"date"`
		Text      string `json:"text,omitempty"`
	}
	// CallbackQuery is a tap on an inline keyboard button.
	CallbackQuery struct {
		ID      string   `json:"id"`
		From    User     `json:"from"`
		Message *Message `json:"message,omitempty"`
		Data    string   `json:"data,omitempty"`
	}
	// Update is one getUpdates item.
	Update struct {
		UpdateID      int64          `json:"update_id"`
		Message       *Message       `json:"message,omitempty"`
		CallbackQuery *CallbackQuery `json:"callback_query,omitempty"`
	}
	// InlineButton is one inline keyboard button.
	InlineButton struct {
		Text         string `json:"text"`
		CallbackData string `json:"callback_data"`
	}
	// InlineKeyboard is reply_markup with buttons under a message.
	InlineKeyboard struct {
		InlineKeyboard [][]InlineButton `json:"inline_keyboard"`
	}
)

// APIError is an error answer from the Bot API ({ok:false}).
type APIError struct {
	Method      string
	Code        int
	Description string
	RetryAfter  int // seconds, for 429
}

func (e *APIError) Error() string {
	return fmt.Sprintf("telegram %s: %d %s", e.Method, e.Code, e.Description)
}

// client speaks the Bot API over the shared HTTP/JSON client. The token is
// part of every URL, so it sits in the client's base URL, which no error
// ever quotes.
type client struct {
	http *httpjson.Client
}

// maxResponse caps one Bot API answer.
const maxResponse = 8 << 20

// newClient builds the Bot API client for base (e.g.
// https://api.telegram.org) and token; hc nil means no timeout beyond the
// caller's context (getUpdates long-polls).
func newClient(base, token string, hc *http.Client) (*client, error) {
	if _, err := httpjson.ParseBaseURL(base); err != nil {
		return nil, fmt.Errorf("telegram.apiBaseUrl: %w", err)
	}
	if hc == nil {
		hc = &http.Client{}
	}
	c, err := httpjson.New(httpjson.Options{Name: "telegram", BaseURL: strings.TrimRight(base, "/") + "/bot" + url.PathEscape(token),
		HTTP: hc, MaxBody: maxResponse})
	if err != nil {
		return nil, errors.New("telegram: the bot token does not fit in a URL") // never quote the token
	}
	return &client{http: c}, nil
}

func (c *client) call(ctx context.Context, method string, params, out any) error {
	raw, status := []byte(nil), 0
	resp, err := c.http.Do(ctx, httpjson.Request{Method: http.MethodPost, Path: "/" + method, Body: params})
	var se *httpjson.StatusError
	switch {
	case errors.As(err, &se):
		raw, status = se.Raw, se.Status // the Bot API explains errors in its JSON envelope
	case err != nil:
		var te *httpjson.TransportError
		if errors.As(err, &te) {
			err = te.Err
		}
		return fmt.Errorf("telegram %s: %w", method, err)
	default:
		raw, status = resp.Body, resp.Status
	}
	var env struct {
		OK          bool            `json:"ok"`
		Result      json.RawMessage `json:"result"`
		ErrorCode   int             `json:"error_code"`
		Description string          `json:"description"`
		Parameters  struct {
			RetryAfter int `json:"retry_after"`
		} `json:"parameters"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return &APIError{Method: method, Code: status, Description: "answer is not Bot API JSON"}
	}
	if !env.OK {
		code := env.ErrorCode
		if code == 0 {
			code = status
		}
		return &APIError{Method: method, Code: code, Description: env.Description, RetryAfter: env.Parameters.RetryAfter}
	}
	if out != nil && len(env.Result) > 0 && string(env.Result) != "null" {
		if err := json.Unmarshal(env.Result, out); err != nil {
			return fmt.Errorf("telegram %s: decode result: %w", method, err)
		}
	}
	return nil
}

func (c *client) getMe(ctx context.Context) (User, error) {
	var u User
	err := c.call(ctx, "getMe", struct{}{}, &u)
	return u, err
}

func (c *client) getUpdates(ctx context.Context, offset int64, timeout time.Duration) ([]Update, error) {
	var ups []Update
	err := c.call(ctx, "getUpdates", map[string]any{
		"offset":          offset,
		"timeout":         int(timeout / time.Second),
		"allowed_updates": []string{"message", "callback_query"},
	}, &ups)
	return ups, err
}

func (c *client) sendMessage(ctx context.Context, chatID int64, text string, kb *InlineKeyboard) (Message, error) {
	p := map[string]any{"chat_id": chatID, "text": text}
	if kb != nil {
		p["reply_markup"] = kb
	}
	var m Message
	err := c.call(ctx, "sendMessage", p, &m)
	return m, err
}

func (c *client) answerCallbackQuery(ctx context.Context, id, text string) error {
	return c.call(ctx, "answerCallbackQuery", map[string]any{"callback_query_id": id, "text": text}, nil)
}

// maxMessageRunes keeps chunks under Telegram's 4096-character limit.
const maxMessageRunes = 4000

// splitMessage cuts long text into chunks, preferring line breaks.
func splitMessage(text string) []string {
	r := []rune(text)
	var out []string
	for len(r) > maxMessageRunes {
		cut := maxMessageRunes
		for i := maxMessageRunes; i > maxMessageRunes/2; i-- {
			if r[i-1] == '\n' {
				cut = i
				break
			}
		}
		out = append(out, string(r[:cut]))
		r = r[cut:]
	}
	if len(r) > 0 || len(out) == 0 {
		out = append(out, string(r))
	}
	return out
}
