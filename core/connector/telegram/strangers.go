package telegram

import (
	"sync"
	"time"
)

// strangerLog rate-limits the log lines about chats off the allow list: a
// stranger (or a bot spamming the bot) gets one line, then at most one a
// minute with how many messages were ignored in between. It remembers at
// most maxStrangers chats; past that it starts over, which at worst logs a
// chat again early.
type strangerLog struct {
	mu    sync.Mutex
	chats map[int64]*strangerEntry
}

type strangerEntry struct {
	logged     time.Time
	suppressed int
}

const (
	strangerEvery = time.Minute
	maxStrangers  = 1024
)

// note counts a message from chat and says whether to log it now, with
// how many messages were ignored since the last line (this one included).
func (s *strangerLog) note(chat int64, now time.Time) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.chats == nil || len(s.chats) >= maxStrangers {
		s.chats = map[int64]*strangerEntry{}
	}
	e, ok := s.chats[chat]
	if !ok {
		s.chats[chat] = &strangerEntry{logged: now}
		return 1, true
	}
	e.suppressed++
	if now.Sub(e.logged) < strangerEvery {
		return 0, false
	}
	n := e.suppressed
	e.logged, e.suppressed = now, 0
	return n, true
}
