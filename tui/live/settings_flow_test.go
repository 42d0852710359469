package live

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/core/schedule"
	"github.com/alice-trading/alice/tui"
)

// echoLLM is an OpenAI-compatible streaming server with scripts/mockllm's
// default rule ("You said: <text>"); it records the model of each request
// so tests can tell which profile a message went to.
type echoLLM struct {
	srv    *httptest.Server
	mu     sync.Mutex
	models []string
}

func newEchoLLM(t *testing.T) *echoLLM {
	e := &echoLLM{}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		e.mu.Lock()
		e.models = append(e.models, req.Model)
		e.mu.Unlock()
		last := ""
		for _, m := range req.Messages {
			if s, ok := m.Content.(string); ok && m.Role == "user" {
				last = s
			}
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta map[string]any, finish any) {
			b, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": req.Model,
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
			fmt.Fprintf(w, "data: %s\n\n", b)
			w.(http.Flusher).Flush()
		}
		chunk(map[string]any{"role": "assistant", "content": "You said: " + last}, nil)
		chunk(map[string]any{}, "stop")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *echoLLM) lastModel() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.models) == 0 {
		return ""
	}
	return e.models[len(e.models)-1]
}

func keyText(tm *teatest.TestModel, s string) {
	for _, r := range s {
		tm.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func press(tm *teatest.TestModel, codes ...rune) {
	for _, c := range codes {
		tm.Send(tea.KeyPressMsg{Code: c})
	}
}

var (
	altKey = func(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModAlt} }
	ctrlS  = tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
)

// TestSettingsFlowsAgainstARunningCore drives every Settings page through
// the real program over a real core: add an AI profile and chat with it,
// add a second simulator account and trade on it without a restart, add a
// cron job and see it fire, toggle the heartbeat; then `alice check` (the
// same CheckAll) passes on every file the pane wrote.
func TestSettingsFlowsAgainstARunningCore(t *testing.T) {
	llm := newEchoLLM(t)
	feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`<?xml version="1.0"?><rss version="2.0"><channel><title>Flow Markets</title>` +
			`<item><title>a</title></item><item><title>b</title></item></channel></rss>`))
	}))
	t.Cleanup(feed.Close)
	editor := filepath.Join(t.TempDir(), "editor.sh")
	require.NoError(t, os.WriteFile(editor, []byte("#!/bin/sh\necho 'Always answer in haiku.' >> \"$1\"\n"), 0o700))
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", editor)
	a := apptest.Start(t, nil)
	c := New(a)
	dark := true
	m := tui.New(c, tui.Options{Version: "test", Dark: &dark})
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(130, 40),
		teatest.WithProgramOptions(tea.WithEnvironment([]string{"TERM=xterm-256color"})))
	scr := newVTScreen(t, tm, 130, 40)
	scr.waitFor("Settings")

	// AI provider: add a profile, test it, chat with it.
	tm.Send(altKey('8'))
	scr.waitFor("No profiles yet")
	keyText(tm, "a")
	scr.waitFor("Add AI profile")
	keyText(tm, "mock")
	press(tm, tea.KeyTab, tea.KeyTab) // backend stays openai
	keyText(tm, "flow-model")
	press(tm, tea.KeyTab)
	keyText(tm, llm.srv.URL)
	tm.Send(ctrlS)
	scr.waitFor("● mock")
	keyText(tm, "t")
	scr.waitFor("✓ mock (openai flow-model) answered in")
	tm.Send(altKey('1'))
	keyText(tm, "hello settings")
	press(tm, tea.KeyEnter)
	scr.waitFor("You said: hello settings")
	require.Equal(t, "flow-model", llm.lastModel())

	// Accounts: add a second simulator account; it runs without a restart.
	tm.Send(altKey('8'))
	keyText(tm, "]")
	scr.waitFor("Trading accounts")
	keyText(tm, "a")
	scr.waitFor("Choose a broker preset")
	press(tm, tea.KeyEnter)
	scr.waitFor("Starting cash")
	tm.Send(ctrlS)
	scr.waitFor("account simulator-2 added and started")
	ctx := context.Background()
	for _, call := range []struct{ tool, args string }{
		{"placeOrder", `{"source":"simulator-2","aliceId":"simulator-2|MSFT","action":"BUY","orderType":"MKT","totalQuantity":"3"}`},
		{"tradingCommit", `{"source":"simulator-2","message":"buy MSFT on the new account"}`},
	} {
		_, err := a.Tools().Call(ctx, call.tool, json.RawMessage(call.args))
		require.NoError(t, err, call.tool)
	}
	pending, err := c.Pending()
	require.NoError(t, err)
	require.Len(t, pending, 1)
	_, err = c.Approve(ctx, "simulator-2", pending[0].Hash)
	require.NoError(t, err)
	pos, err := c.Positions("simulator-2")
	require.NoError(t, err)
	require.Len(t, pos, 1)
	require.Equal(t, "MSFT", pos[0].Symbol)

	// Automation: add a cron job firing every second; see it run.
	keyText(tm, "]")
	scr.waitFor("Cron jobs")
	keyText(tm, "a")
	scr.waitFor("Add cron job")
	keyText(tm, "flow-job")
	press(tm, tea.KeyTab)
	for range 12 {
		press(tm, tea.KeyBackspace)
	}
	keyText(tm, "every 1s")
	scr.waitFor("Next runs")
	press(tm, tea.KeyTab)
	keyText(tm, "cron says hi")
	tm.Send(ctrlS)
	scr.waitFor("flow-job")
	require.Eventually(t, func() bool {
		for _, j := range a.Automation().Jobs() {
			if j.Name == "flow-job" && j.State.LastStatus != nil && *j.State.LastStatus == schedule.StatusOK {
				return true
			}
		}
		return false
	}, 20*time.Second, 50*time.Millisecond, "the cron job fires")
	keyText(tm, "r")
	scr.waitFor(" ok")
	// Disable it so it stops firing for the rest of the test.
	press(tm, tea.KeyDown)
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	scr.waitFor("off  flow-job")

	// Heartbeat: toggle on from row 0.
	press(tm, tea.KeyUp)
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	scr.waitFor("heartbeat on")
	hb, _, err := a.Settings().Heartbeat()
	require.NoError(t, err)
	require.True(t, hb.Enabled)

	// Connectors: a webhook token with a ready curl line.
	keyText(tm, "]")
	scr.waitFor("Ask connector")
	keyText(tm, "a")
	scr.waitFor("curl -X POST")

	// News: add a feed (tested before it is saved).
	keyText(tm, "]")
	scr.waitFor("News feeds")
	keyText(tm, "a")
	scr.waitFor("Add news feed")
	keyText(tm, "Flow feed")
	press(tm, tea.KeyTab)
	for range 8 {
		press(tm, tea.KeyBackspace)
	}
	keyText(tm, feed.URL+"/rss")
	tm.Send(ctrlS)
	scr.waitFor(`added feed "Flow Markets": 2 items`)

	// Tools: disable one; the next call refuses it.
	keyText(tm, "]")
	scr.waitFor("space enables/disables")
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	scr.waitFor("(applies to the next call)")
	inv := a.Tools().Inventory()
	disabled := ""
	for _, ti := range inv {
		if ti.Disabled {
			disabled = ti.Name
		}
	}
	require.NotEmpty(t, disabled)
	_, err = a.Tools().Call(ctx, disabled, json.RawMessage(`{}`))
	require.Error(t, err)

	// Persona: $EDITOR (a script here) edits the file; the agent reads it.
	keyText(tm, "]")
	scr.waitFor("opens it in $EDITOR")
	keyText(tm, "e")
	scr.waitFor("persona reloaded")
	path, text, err := c.PersonaFile(false)
	require.NoError(t, err)
	require.Contains(t, text, "Always answer in haiku.", path)

	// The flow enabled a scheduled job: quitting stops it, so alice asks.
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	scr.waitFor("Quit alice?")
	keyText(tm, "y")
	tm.WaitFinished(t, teatest.WithFinalTimeout(30*time.Second))

	// Every file the pane wrote passes `alice check` (the settings
	// service's Validate is that check).
	require.NoError(t, a.Settings().Validate())
	accts, _, err := a.Settings().Accounts()
	require.NoError(t, err)
	require.Len(t, accts, 2)
	prov, _, err := a.Settings().Providers()
	require.NoError(t, err)
	require.Equal(t, "mock", prov.ActiveProfile)
	wh, err := a.Settings().Webhook()
	require.NoError(t, err)
	require.Len(t, wh.Tokens, 1)
}
