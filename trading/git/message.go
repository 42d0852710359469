package git

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/alice-trading/alice/core"
)

// MaxMessageChars bounds a commit message (characters, i.e. runes). The
// message is the agent's one-line trading thesis that a person reads
// before approving; 500 characters is several sentences, and the bound
// keeps an agent from storing megabytes per commit (commits.jsonl,
// events.jsonl) or flooding an approval channel.
const MaxMessageChars = 500

// ErrBadMessage is why a commit message was refused. Tools name their own
// field in front of it (commitMessage, message).
var ErrBadMessage = errors.New("must be one line of at most 500 characters without control or invisible characters (no newlines, tabs, escape sequences, bidirectional overrides or zero-width spaces)")

// ValidateMessage is the one check of a commit message, made when it is
// committed (Git.Commit) and, by the staging tools, before anything is
// staged: after trimming the ends it must be non-empty, valid UTF-8, at
// most MaxMessageChars characters, and free of every rune
// core.UnsafeRune refuses — a message that could draw a fake operation
// or move the real one out of sight on an approval screen never gets in.
func ValidateMessage(message string) error {
	message = strings.TrimSpace(message)
	if message == "" {
		return errors.New("commit message is required")
	}
	if !utf8.ValidString(message) || utf8.RuneCountInString(message) > MaxMessageChars {
		return ErrBadMessage
	}
	if strings.IndexFunc(message, core.UnsafeRune) >= 0 || strings.IndexFunc(message, invisible) >= 0 {
		return ErrBadMessage
	}
	return nil
}

// invisible reports runes that take no room and show nothing, which can
// hide text in plain sight or break the alignment of a log (zero-width
// space, word joiner and the invisible operators, byte-order mark, soft
// hyphen, combining grapheme joiner, Mongolian vowel separator). The
// zero-width joiner and non-joiner stay: emoji sequences and several
// scripts need them.
func invisible(r rune) bool {
	switch {
	case r == '\u200b', r >= '\u2060' && r <= '\u2064', r == '\ufeff', r == '\u00ad', r == '\u034f', r == '\u180e':
		return true
	}
	return false
}

// DisplayMessage is a stored message as it may be shown: one line, safe
// characters, at most MaxMessageChars. Commits made before
// ValidateMessage existed may hold anything.
func DisplayMessage(message string) string {
	return core.PlainLine(message, MaxMessageChars)
}
