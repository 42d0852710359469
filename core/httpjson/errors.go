package httpjson

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Error classes a StatusError matches with errors.Is, so callers can test
// the kind of failure without comparing status codes.
var (
	ErrNotFound     = errors.New("not found")
	ErrUnauthorized = errors.New("unauthorized")
	ErrForbidden    = errors.New("forbidden")
	ErrRateLimited  = errors.New("rate limited")
	ErrServer       = errors.New("server error")
	ErrBadRequest   = errors.New("request rejected")
)

// StatusError is a non-2xx answer.
type StatusError struct {
	Source, Method, Path string
	Status               int
	// Body is the answer trimmed and clipped for messages; Raw is all of
	// it (up to MaxBody) for callers that parse error envelopes.
	Body       string
	Raw        []byte
	RetryAfter time.Duration
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("HTTP %d", e.Status)
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return prefix(e.Source, e.Method, e.Path) + msg
}

// Is matches the error classes: 404 ErrNotFound, 401 ErrUnauthorized, 403
// ErrForbidden, 429 ErrRateLimited, 5xx ErrServer, other 4xx ErrBadRequest.
func (e *StatusError) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	case ErrUnauthorized:
		return e.Status == http.StatusUnauthorized
	case ErrForbidden:
		return e.Status == http.StatusForbidden
	case ErrRateLimited:
		return e.Status == http.StatusTooManyRequests
	case ErrServer:
		return e.Status >= 500
	case ErrBadRequest:
		return e.Status >= 400 && e.Status < 500 && e.Status != http.StatusNotFound &&
			e.Status != http.StatusUnauthorized && e.Status != http.StatusForbidden && e.Status != http.StatusTooManyRequests
	}
	return false
}

// TransportError is a request that got no answer: refused, timed out,
// cancelled, or cut off mid-body.
type TransportError struct {
	Source, Method, Path string
	Err                  error
}

func (e *TransportError) Error() string {
	return prefix(e.Source, e.Method, e.Path) + e.Err.Error()
}

func (e *TransportError) Unwrap() error { return e.Err }

// DecodeError is a 2xx answer that is not the JSON expected.
type DecodeError struct {
	Source, Method, Path string
	Err                  error
}

func (e *DecodeError) Error() string {
	return prefix(e.Source, e.Method, e.Path) + "unexpected response: " + e.Err.Error()
}

func (e *DecodeError) Unwrap() error { return e.Err }

func prefix(source, method, path string) string {
	p := strings.TrimSpace(method + " " + path)
	if source != "" {
		p = source + " " + p
	}
	if p == "" {
		return ""
	}
	return p + ": "
}

// Clip trims s and cuts it to at most n runes, marking the cut with "…".
func Clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}

// retryAfter reads a Retry-After header in seconds or as an HTTP date.
func retryAfter(h string) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if s, err := strconv.Atoi(h); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}
