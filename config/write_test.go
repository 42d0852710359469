package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestEditPreservesKeysTheFormDoesNotKnow(t *testing.T) {
	s := NewStore(t.TempDir())
	const file = `{
  "activeProfile": "a",
  "futureKey": {"keep": true},
  "profiles": {
    "a": {"backend": "openai", "model": "m1", "baseUrl": "http://x", "extra": 7},
    "b": {"backend": "anthropic", "apiKeyEnv": "K"}
  }
}`
	if err := os.WriteFile(s.Path(AIProviderFile), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	ver, err := s.FileVersion(AIProviderFile)
	if err != nil || ver == "" {
		t.Fatalf("version %q %v", ver, err)
	}
	_, ver2, err := Edit(s, AIProviderFile, ver, DefaultAIProvider, func(c *AIProvider) error {
		p := c.Profiles["a"]
		p.Model = "m2"
		c.Profiles["a"] = p
		delete(c.Profiles, "b")
		c.Profiles["c"] = Profile{Backend: BackendOpenAI, BaseURL: "http://y"}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if ver2 == ver {
		t.Fatal("version did not change after a write")
	}
	out, _ := os.ReadFile(s.Path(AIProviderFile))
	got := string(out)
	for _, want := range []string{`"futureKey"`, `"extra": 7`, `"model": "m2"`, `"c"`, `"http://y"`} {
		if !strings.Contains(got, want) {
			t.Errorf("written file lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"b"`) {
		t.Errorf("deleted profile b survived:\n%s", got)
	}
}

func TestEditRefusesAConflictingChange(t *testing.T) {
	s := NewStore(t.TempDir())
	_, ver, err := LoadVersioned(s, HeartbeatFile, DefaultHeartbeat)
	if err != nil {
		t.Fatal(err)
	}
	// Someone edits the file behind the editor's back.
	if _, _, err := Edit(s, HeartbeatFile, "", DefaultHeartbeat, func(h *Heartbeat) error { h.Enabled = true; return nil }); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(s.Path(HeartbeatFile))
	_, _, err = Edit(s, HeartbeatFile, ver, DefaultHeartbeat, func(h *Heartbeat) error { h.Enabled = false; return nil })
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("want ErrConflict, got %v", err)
	}
	after, _ := os.ReadFile(s.Path(HeartbeatFile))
	if string(before) != string(after) {
		t.Fatal("a refused edit changed the file")
	}
}

func TestEditValidatesWithTheCheckCode(t *testing.T) {
	s := NewStore(t.TempDir())
	_, _, err := Edit(s, ConnectorsFile, "", DefaultConnectors, func(c *Connectors) error {
		c.MCPAsk.Port = 70000
		return nil
	})
	var ce *Error
	if !errors.As(err, &ce) || ce.Key != "mcpAsk.port" {
		t.Fatalf("want a config error on mcpAsk.port, got %v", err)
	}
	if _, err := os.Stat(s.Path(ConnectorsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("an invalid edit created the file")
	}
}

func TestEditMergesAccountsByID(t *testing.T) {
	s := NewStore(t.TempDir())
	const file = `[
  {"id": "one", "presetId": "simulator", "enabled": true, "guards": [], "label": "keep me"},
  {"id": "two", "presetId": "simulator", "enabled": true, "guards": []}
]`
	if err := os.WriteFile(s.Path(AccountsFile), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := Edit(s, AccountsFile, "", DefaultAccounts, func(a *Accounts) error {
		*a = append(Accounts{(*a)[1]}, (*a)[0]) // reorder
		(*a)[1].Enabled = false
		*a = append(*a, Account{ID: "three", Preset: "simulator", Enabled: true, Guards: []Guard{}})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(s.Path(AccountsFile))
	got := string(out)
	if !strings.Contains(got, `"label": "keep me"`) || !strings.Contains(got, `"three"`) {
		t.Fatalf("merge lost data:\n%s", got)
	}
	if strings.Index(got, `"two"`) > strings.Index(got, `"one"`) {
		t.Fatalf("order not applied:\n%s", got)
	}
}

func TestEditLeavesNoTempFiles(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(dir)
	for i := range 3 {
		if _, _, err := Edit(s, WebhookFile, "", DefaultWebhook, func(w *Webhook) error {
			w.Tokens = append(w.Tokens, WebhookToken{ID: string(rune('a' + i)), Token: "0123456789"})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("want only webhook.json, got %v", ents)
	}
	w, err := s.Webhook()
	if err != nil || len(w.Tokens) != 3 {
		t.Fatalf("reload: %v %+v", err, w)
	}
}

// The watch is told by the OS: with an hour between polls it still sees an
// edit in place, a save by rename (as editors save) and a removal at once,
// and nothing else in the directory wakes it with a change.
func TestWatchIsToldOfEditsWithoutPolling(t *testing.T) {
	t.Parallel()
	s := NewStore(t.TempDir())
	if _, err := s.Heartbeat(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	since, _ := s.FileVersion(HeartbeatFile)
	got := make(chan Version, 8)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Watch(ctx, HeartbeatFile, since, time.Hour, func(v Version) { got <- v })
	}()
	path := s.Path(HeartbeatFile)
	expect := func(what string) {
		t.Helper()
		select {
		case v := <-got:
			if cur, _ := s.FileVersion(HeartbeatFile); v != cur {
				t.Fatalf("%s: watch reported %s, file is %s", what, v, cur)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the watch did not report it", what)
		}
	}
	// The watch may start after the first write: keep writing new bytes
	// until it reports one.
	for i := 0; ; i++ {
		if err := os.WriteFile(path, []byte(fmt.Sprintf(`{"enabled":true,"every":"%dm","prompt":"x","activeHours":null}`, i+1)), 0o600); err != nil {
			t.Fatal(err)
		}
		select {
		case <-got:
		case <-time.After(100 * time.Millisecond):
			if i < 300 {
				continue
			}
			t.Fatal("the watch never reported an edit")
		}
		break
	}
	// The last writes may still be reported: wait until nothing comes.
	for quiet := false; !quiet; {
		select {
		case <-got:
		case <-time.After(time.Second):
			quiet = true
		}
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(`{"enabled":false,"every":"7m","prompt":"y","activeHours":null}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	expect("a save by rename")
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "other.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	expect("a removal")
	select {
	case v := <-got:
		t.Fatalf("an extra change %q was reported", v)
	default:
	}
	cancel()
	<-done
}

// Where the OS cannot watch, the file is checked every interval.
func TestWatchPollsWithoutOSNotifications(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	checks := make(chan struct{}, 8)
	done := make(chan struct{})
	go func() {
		defer close(done)
		NewStore(t.TempDir()).poll(ctx, time.Millisecond, func() { checks <- struct{}{} })
	}()
	for i := 0; i < 3; i++ {
		select {
		case <-checks:
		case <-time.After(30 * time.Second):
			t.Fatalf("check %d never ran", i+1)
		}
	}
	cancel()
	<-done
}
