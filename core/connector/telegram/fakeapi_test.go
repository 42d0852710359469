package telegram

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/alice-trading/alice/core/eventlog"
)

// fakeAPI is an in-memory Bot API: queued updates honour offset (unless
// ignoreOffset), sent messages and callback answers are recorded.
type fakeAPI struct {
	t            *testing.T
	token        string
	ignoreOffset bool

	mu       sync.Mutex
	updates  []Update
	nextID   int64
	sent     []sentMessage
	answered []string
	polls    int
}

type sentMessage struct {
	ChatID int64           `json:"chat_id"`
	Text   string          `json:"text"`
	Markup *InlineKeyboard `json:"reply_markup"`
	Mode   string          `json:"parse_mode"`
}

func newFakeAPI(t *testing.T) (*fakeAPI, *httptest.Server) {
	f := &fakeAPI{t: t, token: "123:SECRET", nextID: 100}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	prefix := "/bot" + f.token + "/"
	w.Header().Set("Content-Type", "application/json")
	if !strings.HasPrefix(r.URL.Path, prefix) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"ok":false,"error_code":401,"description":"Unauthorized"}`))
		return
	}
	var p map[string]json.RawMessage
	_ = json.NewDecoder(r.Body).Decode(&p)
	f.mu.Lock()
	defer f.mu.Unlock()
	var result any
	switch strings.TrimPrefix(r.URL.Path, prefix) {
	case "getMe":
		result = User{ID: 1, IsBot: true, Username: "AliceTestBot"}
	case "getUpdates":
		f.polls++
		var off int64
		_ = json.Unmarshal(p["offset"], &off)
		out := []Update{}
		for _, u := range f.updates {
			if f.ignoreOffset || u.UpdateID >= off {
				out = append(out, u)
			}
		}
		result = out
	case "sendMessage":
		var m sentMessage
		b, _ := json.Marshal(p)
		_ = json.Unmarshal(b, &m)
		f.sent = append(f.sent, m)
		result = Message{MessageID: int64(len(f.sent)), Chat: Chat{ID: m.ChatID}, Text: m.Text}
	case "answerCallbackQuery":
		var id string
		_ = json.Unmarshal(p["callback_query_id"], &id)
		f.answered = append(f.answered, id)
		result = true
	default:
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"ok":false,"error_code":404,"description":"Not Found"}`))
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

func (f *fakeAPI) userSays(chat int64, text string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	f.updates = append(f.updates, Update{UpdateID: f.nextID, Message: &Message{MessageID: f.nextID, From: &User{ID: chat}, Chat: Chat{ID: chat, Type: "private"}, Text: text}})
}

func (f *fakeAPI) userTaps(chat int64, data string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	f.updates = append(f.updates, Update{UpdateID: f.nextID, CallbackQuery: &CallbackQuery{ID: "cb" + data, From: User{ID: chat}, Message: &Message{Chat: Chat{ID: chat}}, Data: data}})
}

func (f *fakeAPI) sentTo(chat int64) []sentMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []sentMessage
	for _, m := range f.sent {
		if m.ChatID == chat {
			out = append(out, m)
		}
	}
	return out
}

func (f *fakeAPI) allSent() []sentMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sentMessage(nil), f.sent...)
}

// fakes for the bot's collaborators

type fakeAgent struct {
	mu    sync.Mutex
	calls []string // sessionID: prompt
}

func (a *fakeAgent) AskWithSession(_ context.Context, prompt, sessionID string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls = append(a.calls, sessionID+": "+prompt)
	return "You said: " + prompt, nil
}

func (a *fakeAgent) Calls() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.calls...)
}

type fakeCenter struct {
	mu      sync.Mutex
	touches []string
}

func (c *fakeCenter) Touch(channel, to string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.touches = append(c.touches, channel+":"+to)
}

func (c *fakeCenter) Touches() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.touches...)
}

type fakeCommands struct {
	mu        sync.Mutex
	heartbeat []bool
	compacted []string
	runs      []string // "job|key"
}

func (c *fakeCommands) RunJob(idOrName, key string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if idOrName == "ghost" {
		return "", fmt.Errorf("no cron job %q", idOrName)
	}
	c.runs = append(c.runs, idOrName+"|"+key)
	return "Running " + idOrName + " now.", nil
}

func (c *fakeCommands) RetryTask(id string) (string, error) { return "Retrying " + id + ".", nil }

func (c *fakeCommands) Status(context.Context) (string, error) { return "All systems go.", nil }
func (c *fakeCommands) Compact(_ context.Context, id string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.compacted = append(c.compacted, id)
	return "Compacted " + id + ".", nil
}
func (c *fakeCommands) SetHeartbeat(on bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.heartbeat = append(c.heartbeat, on)
	return nil
}

// fakeApprovals holds one waiting commit per account and, like the real
// trading manager, refuses a decision about any other hash.
type fakeApprovals struct {
	mu       sync.Mutex
	hash     map[string]string // account → waiting commit ("" = none)
	approved []string          // "account:hash"
	rejected []string
}

func (a *fakeApprovals) waiting(acct string) string {
	if a.hash == nil {
		a.hash = map[string]string{"paper-1": "a1b2c3d4"}
	}
	return a.hash[acct]
}

func (a *fakeApprovals) Pending(context.Context) ([]PendingCommit, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if h := a.waiting("paper-1"); h != "" {
		return []PendingCommit{{Account: "paper-1", Label: "Paper", Hash: h, Message: "buy the dip", Operations: []string{"BUY 5 MSFT @ market"}}}, nil
	}
	return nil, nil
}

// stage simulates the agent staging more: the waiting commit changes.
func (a *fakeApprovals) stage(acct, newHash string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.waiting(acct)
	a.hash[acct] = newHash
}

func (a *fakeApprovals) decide(acct, hash string, into *[]string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if w := a.waiting(acct); w != hash {
		return fmt.Errorf("commit %s is no longer the prepared commit (now %q); nothing was executed", hash, w)
	}
	a.hash[acct] = ""
	*into = append(*into, acct+":"+hash)
	return nil
}

func (a *fakeApprovals) Approve(_ context.Context, acct, hash string) (string, error) {
	if err := a.decide(acct, hash, &a.approved); err != nil {
		return "", err
	}
	return "Pushed " + acct + ".", nil
}
func (a *fakeApprovals) Reject(_ context.Context, acct, hash string) (string, error) {
	if err := a.decide(acct, hash, &a.rejected); err != nil {
		return "", err
	}
	return "Rejected " + acct + ".", nil
}

type fakeEvents struct {
	mu    sync.Mutex
	types []string
}

func (e *fakeEvents) Append(typ string, _ any) (eventlog.Entry, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.types = append(e.types, typ)
	return eventlog.Entry{Type: typ}, nil
}

func (e *fakeEvents) Types() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.types...)
}
