package provider

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/openai/openai-go/v3"
)

// describe turns SDK API errors into "HTTP 400: <the server's message>" so
// the user sees why a request failed, not just a status line.
func describe(err error) error {
	var oe *openai.Error
	if errors.As(err, &oe) {
		if oe.Message != "" {
			return fmt.Errorf("HTTP %d: %s", oe.StatusCode, oe.Message)
		}
		return fmt.Errorf("HTTP %d: %s", oe.StatusCode, bodyMessage(oe.RawJSON()))
	}
	var ae *anthropic.Error
	if errors.As(err, &ae) {
		return fmt.Errorf("HTTP %d: %s", ae.StatusCode, bodyMessage(ae.RawJSON()))
	}
	return err
}

// bodyMessage extracts error.message from a JSON error body.
func bodyMessage(raw string) string {
	var v struct {
		Message string `json:"message"`
		Error   struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(raw), &v) == nil {
		if v.Error.Message != "" {
			return v.Error.Message
		}
		if v.Message != "" {
			return v.Message
		}
	}
	if raw == "" {
		return "request failed"
	}
	return raw
}
