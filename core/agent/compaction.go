package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/alice-trading/alice/core/provider"
	"github.com/alice-trading/alice/core/session"
)

const truncatedNote = "[content truncated during compaction]"

// microcompactMinSavings is how many estimated tokens a microcompact must
// save to be used instead of a full summary.
const microcompactMinSavings = 20000

// compactIfNeeded returns the entries to send: unchanged below the
// threshold, microcompacted (in memory only) when trimming old tool
// results is enough, or the fresh window after an LLM summary. The caller
// has just appended the user's prompt; a summary covers everything before
// it and the prompt is carried over after the summary so the model still
// sees it.
func (c *Center) compactIfNeeded(ctx context.Context, sessionID string, res provider.Resolved) ([]session.Entry, error) {
	entries, err := c.d.Sessions.ReadActive(sessionID)
	if err != nil {
		return nil, err
	}
	cfg, err := c.d.Config.Compaction()
	if err != nil {
		return entries, err
	}
	before := session.EstimateTokens(entries)
	if before < cfg.Threshold() {
		return entries, nil
	}
	micro := Microcompact(entries, cfg.MicrocompactKeepRecent)
	after := session.EstimateTokens(micro)
	if before-after >= microcompactMinSavings && after < cfg.Threshold() {
		return micro, nil
	}
	toSummarize, carry := entries, []session.Entry(nil)
	if n := len(entries); n > 1 && entries[n-1].Type == "user" && entries[n-1].Provider == "human" {
		last := entries[n-1]
		toSummarize = entries[:n-1]
		carry = []session.Entry{{Type: last.Type, Message: last.Message, Provider: last.Provider, Metadata: last.Metadata}}
	}
	if !hasNewContent(toSummarize) {
		return entries, nil // only a summary is left: summarising it again gains nothing
	}
	if err := c.summarize(ctx, sessionID, toSummarize, carry, "auto", before, res); err != nil {
		return entries, err
	}
	return c.d.Sessions.ReadActive(sessionID)
}

// hasNewContent reports whether entries hold anything besides a compact
// boundary and its summary.
func hasNewContent(entries []session.Entry) bool {
	for _, e := range entries {
		if e.Subtype != "compact_boundary" && !e.IsCompactSummary {
			return true
		}
	}
	return false
}

// Microcompact replaces long tool results (over 500 chars) outside the
// last keepRecent result-bearing entries with a note. It never mutates
// the input.
func Microcompact(entries []session.Entry, keepRecent int) []session.Entry {
	out := make([]session.Entry, len(entries))
	copy(out, entries)
	seen := 0
	for i := len(out) - 1; i >= 0; i-- {
		has := false
		for _, b := range out[i].Message.Content.Blocks {
			if b.Type == "tool_result" {
				has = true
			}
		}
		if !has {
			continue
		}
		seen++
		if seen <= keepRecent {
			continue
		}
		blocks := make([]session.Block, len(out[i].Message.Content.Blocks))
		copy(blocks, out[i].Message.Content.Blocks)
		for j, b := range blocks {
			if b.Type == "tool_result" && len(b.Content) > 500 {
				blocks[j].Content = truncatedNote
			}
		}
		out[i].Message.Content.Blocks = blocks
	}
	return out
}

// Compact forces a summary of a session (the /compact command), with the
// provider the session's channel would use. It waits for a running turn
// on the session to finish first.
func (c *Center) Compact(ctx context.Context, sessionID string) error {
	unlock, err := c.d.Sessions.LockContext(ctx, sessionID)
	if err != nil {
		return err
	}
	defer unlock()
	entries, err := c.d.Sessions.ReadActive(sessionID)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return errors.New("nothing to compact: the session is empty")
	}
	res, err := c.d.Router.Resolve("", sessionID)
	if err != nil {
		return err
	}
	return c.summarize(ctx, sessionID, entries, nil, "manual", session.EstimateTokens(entries), res)
}

// summarize asks the model for a summary and appends the boundary, the
// summary and then carry (entries that must stay in the new window) in one
// write; later reads start from the boundary.
func (c *Center) summarize(ctx context.Context, sessionID string, entries, carry []session.Entry, trigger string, preTokens int, res provider.Resolved) error {
	prompt := SummaryPrompt(entries)
	text, err := collect(ctx, res, "", prompt)
	if err != nil {
		return fmt.Errorf("summarize session: %w", err)
	}
	summary := extractSummary(text)
	if strings.TrimSpace(summary) == "" {
		return errors.New("summarize session: the model returned an empty summary")
	}
	boundary := session.NewText("system", "Conversation compacted", "compaction")
	boundary.Subtype = "compact_boundary"
	boundary.CompactMetadata = &session.CompactMeta{Trigger: trigger, PreTokens: preTokens}
	sum := session.NewText("user", "This session is being continued from a previous conversation. The summary below covers the earlier portion of the conversation.\n\n"+summary, "compaction")
	sum.IsCompactSummary = true
	_, err = c.d.Sessions.AppendLocked(sessionID, append([]session.Entry{boundary, sum}, carry...)...)
	if err == nil {
		c.log.Info("Session compacted", "session", sessionID, "trigger", trigger, "preTokens", preTokens)
	}
	return err
}

// SummaryPrompt builds the summarisation request from the text of the
// conversation.
func SummaryPrompt(entries []session.Entry) string {
	var conv []string
	for _, e := range entries {
		if e.Type == "system" {
			continue
		}
		t := strings.TrimSpace(e.Message.Content.PlainText())
		if t == "" {
			continue
		}
		conv = append(conv, fmt.Sprintf("[%s]: %s", strings.ToUpper(e.Message.Role), t))
	}
	return "Your task is to create a detailed summary of the conversation so far, preserving all important context needed to continue the session.\n\n<conversation>\n" +
		strings.Join(conv, "\n\n") +
		"\n</conversation>\n\nProduce a summary inside <summary> tags with these sections:\n\n" +
		"1. **Primary Request and Intent**\n2. **Key Technical Concepts**\n3. **Current State** (positions, orders, pending commits)\n" +
		"4. **Important Data Points**\n5. **User Preferences**\n6. **Pending Tasks**\n7. **Current Work**\n\n" +
		"Be thorough but concise. Preserve specific values (numbers, names, IDs) exactly.\n" +
		"IMPORTANT: Respond with ONLY the <summary>...</summary> block. Do NOT use any tools."
}

func extractSummary(text string) string {
	if i := strings.Index(text, "<summary>"); i >= 0 {
		text = text[i+len("<summary>"):]
		if j := strings.Index(text, "</summary>"); j >= 0 {
			text = text[:j]
		}
	}
	return strings.TrimSpace(text)
}
