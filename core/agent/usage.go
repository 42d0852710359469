package agent

import (
	"encoding/json"
	"errors"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/core/jsonl"
	"github.com/alice-trading/alice/core/provider"
)

// UsageRecord is one line of usage/usage.jsonl: what one model turn of a
// session consumed and what it cost at the model's list price (CostUSD
// is empty when the model's price is unknown).
type UsageRecord struct {
	Timestamp string `json:"timestamp"`
	SessionID string `json:"sessionId"`
	Channel   string `json:"channel,omitempty"`
	Agent     string `json:"agent,omitempty"` // the provider label, e.g. "openai (gpt-4o-mini)"
	Provider  string `json:"provider"`
	Model     string `json:"model,omitempty"`
	provider.Usage
	CostUSD string `json:"costUsd,omitempty"`
	// Unreported marks a turn whose backend reported no token usage (the
	// mock LLM, CLI backends): the turn counts, its tokens and cost are
	// unknown (not zero).
	Unreported bool `json:"unreported,omitempty"`
}

// SessionUsage is a session's total.
type SessionUsage struct {
	SessionID    string          `json:"sessionId"`
	Turns        int             `json:"turns"`
	InputTokens  int64           `json:"inputTokens"`
	OutputTokens int64           `json:"outputTokens"`
	CostUSD      decimal.Decimal `json:"costUsd"`
	// UnpricedTurns counts turns of models without a known price; their
	// tokens are in the totals, their cost is not.
	UnpricedTurns int `json:"unpricedTurns,omitempty"`
	// UnreportedTurns counts turns whose backend reported no usage; their
	// tokens and cost are unknown and not in the totals.
	UnreportedTurns int      `json:"unreportedTurns,omitempty"`
	Models          []string `json:"models"`
	Last            string   `json:"last"`
}

// UsageLog appends turn usage to a JSONL file (core/jsonl).
type UsageLog struct {
	path string
	mu   sync.Mutex
	file *jsonl.File
	now  func() time.Time
}

// NewUsageLog logs to path (created on first write).
func NewUsageLog(path string) *UsageLog { return &UsageLog{path: path, now: time.Now} }

// Record prices u for model and appends it.
func (l *UsageLog) Record(r UsageRecord) (UsageRecord, error) {
	if p, ok := provider.PriceOf(r.Model); ok && !r.Unreported {
		r.CostUSD = p.Cost(r.Usage).String()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file == nil {
		f, err := jsonl.Open(l.path, jsonl.Options{})
		if err != nil {
			return r, err
		}
		l.file = f
	}
	if r.Timestamp == "" {
		r.Timestamp = l.now().UTC().Format(time.RFC3339Nano)
	}
	return r, l.file.AppendJSON(r)
}

// Sessions totals the log per session, most recently active first.
func (l *UsageLog) Sessions() ([]SessionUsage, error) {
	by := map[string]*SessionUsage{}
	models := map[string]map[string]bool{}
	err := jsonl.Each(l.path, func(line []byte) bool {
		var r UsageRecord
		if json.Unmarshal(line, &r) != nil || r.SessionID == "" {
			return true
		}
		s := by[r.SessionID]
		if s == nil {
			s = &SessionUsage{SessionID: r.SessionID, Last: r.Timestamp}
			by[r.SessionID], models[r.SessionID] = s, map[string]bool{}
		}
		s.Turns++
		s.InputTokens += r.InputTokens
		s.OutputTokens += r.OutputTokens
		if r.Unreported {
			s.UnreportedTurns++
		} else if c, err := decimal.NewFromString(r.CostUSD); err == nil {
			s.CostUSD = s.CostUSD.Add(c)
		} else {
			s.UnpricedTurns++
		}
		if r.Model != "" && !models[r.SessionID][r.Model] {
			models[r.SessionID][r.Model] = true
			s.Models = append(s.Models, r.Model)
		}
		if r.Timestamp > s.Last {
			s.Last = r.Timestamp
		}
		return true
	})
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	out := make([]SessionUsage, 0, len(by))
	for _, s := range by {
		sort.Strings(s.Models)
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Last > out[j].Last })
	return out, err
}
