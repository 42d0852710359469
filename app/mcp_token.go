package app

import (
	"sync"
	"time"
)

// liveToken serves a bearer token from a config file that is re-read at
// most once a second, so a token generated or revoked in the Settings
// pane (or by editing the file) applies to the next request without a
// restart. A file that cannot be read or parsed keeps the last good token:
// a typo never opens the port.
type liveToken struct {
	read func() (string, error)
	now  func() time.Time

	mu      sync.Mutex
	value   string
	checked time.Time
}

func newLiveToken(initial string, read func() (string, error)) *liveToken {
	return &liveToken{read: read, now: time.Now, value: initial, checked: time.Now()}
}

// Get returns the current token.
func (t *liveToken) Get() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if now := t.now(); now.Sub(t.checked) >= time.Second {
		t.checked = now
		if v, err := t.read(); err == nil {
			t.value = v
		}
	}
	return t.value
}
