package telegram

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/alice-trading/alice/config"
)

// SendTest sends text to every allowed chat with the configured token and
// API base, independent of a running bot, so the Settings pane can check a
// token and chat ids before (or without) enabling the connector. The first
// failure is returned as the Bot API reported it.
func SendTest(ctx context.Context, cfg config.Telegram, text string) error {
	tok, err := ResolveToken(cfg)
	if err != nil {
		return err
	}
	if len(cfg.ChatIDs) == 0 {
		return errors.New("telegram.chatIds is empty: add the chat id(s) the bot may talk to")
	}
	base := cfg.APIBaseURL
	if base == "" {
		base = "https://api.telegram.org"
	}
	c, err := newClient(base, tok, &http.Client{Timeout: 15 * time.Second})
	if err != nil {
		return err
	}
	for _, id := range cfg.ChatIDs {
		if _, err := c.sendMessage(ctx, id, text, nil); err != nil {
			return err
		}
	}
	return nil
}

// Probe asks the configured Bot API who the bot is (getMe), independent
// of a running bot: `alice doctor` uses it. The error never quotes the
// token.
func Probe(ctx context.Context, cfg config.Telegram) (User, error) {
	tok, err := ResolveToken(cfg)
	if err != nil {
		return User{}, err
	}
	base := cfg.APIBaseURL
	if base == "" {
		base = "https://api.telegram.org"
	}
	c, err := newClient(base, tok, &http.Client{Timeout: 10 * time.Second})
	if err != nil {
		return User{}, err
	}
	return c.getMe(ctx)
}
