// Package workspace runs agent CLIs (claude, codex, a shell) in pty-backed
// sessions inside per-task git repositories, and renders each session
// through an in-process terminal emulator for the TUI.
//
// Layout under Options.Root (normally <data>/workspaces):
//
//	workspaces.json                     registry {version:1, workspaces:[…]}
//	<id>/                               the workspace directory (git repo)
//	state/sessions/<id>.json            session records (running|paused, resumeHint)
//	state/scrollback/<id>/<sid>.bin     shell scrollback saved on pause
//
// Sessions are children of alice: Close stops every process tree, and
// claude/codex conversations are resumed on the next start through their
// resume hints (shell sessions get their scrollback replayed).
//
// Wiring for main and the TUI:
//
//	m, _ := workspace.NewManager(workspace.Options{Root: paths.DataPath("workspaces"),
//		MCPURL: func() string { return mcpServer.URL() + "/mcp" }, Persona: readPersona, Logger: log})
//	defer m.Close()                       // stops every session; no orphans
//	// /mcp/{wsId}: id, ok := m.Lookup(r.PathValue("wsId")); tools := wtc.ToolsFor(id)
//	s, err := m.StartSession(ws.ID, "")   // "" = the workspace's default agent
//	// pane: one in-flight cmd per session, re-armed when handled
//	changes, cancel := s.Subscribe()      // this pane's own nudges; cancel when done
//	func() tea.Msg { <-changes; return termChangedMsg{ID: s.ID()} }
//	view := s.Render(); x, y, visible := s.Cursor()
//	s.SendKey(workspace.KeyPress(msg.Key())) // tea.KeyPressMsg; Esc included
//	s.Paste(msg.Content)                     // tea.PasteMsg
//	s.Resize(innerW, innerH)
//	tea.Exec(s.Attach(), func(err error) tea.Msg { … }) // full-screen zoom, ctrl+q detaches
//	inbox.RenderDocs(entry, m.DocReader(), width)       // live docs with tombstones
package workspace

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/pubsub"

	"github.com/google/uuid"
)

// Options configures a Manager.
type Options struct {
	// Root is the workspaces root (<data>/workspaces). Required.
	Root string
	// MCPURL returns alice's global MCP endpoint (e.g.
	// http://127.0.0.1:3001/mcp); the per-workspace endpoint is
	// MCPURL()+"/"+wsID. Read at creation and at every session start.
	MCPURL func() string
	// Persona returns the persona markdown composed into CLAUDE.md.
	Persona func() string
	Logger  *slog.Logger
	// ShellCommand, ClaudeCommand, CodexCommand override the agent command
	// lines (first element looked up on PATH). Defaults: $SHELL or
	// /bin/bash; claude; codex.
	ShellCommand  []string
	ClaudeCommand []string
	CodexCommand  []string
	// OpenCodeCommand overrides "opencode".
	OpenCodeCommand []string
	// ExtraEnv is appended to every session's environment.
	ExtraEnv []string
	// AgentOverride, when set, adds a provider profile's model and
	// credentials to claude and codex sessions of a workspace.
	AgentOverride AgentOverride
	// RespawnDelay is the wait before respawning a crashed child (1 s).
	RespawnDelay time.Duration
	// ScrollbackLines caps each session's scrollback (default 10,000).
	ScrollbackLines int
	// ScrollbackBytes bounds all sessions' scrollback together (default
	// 64 MiB); past it the oldest lines of any session go first.
	ScrollbackBytes int64
	// AgentRulesDir holds <agent>.json files replacing the built-in agent
	// state rules (normally <config>/agent-rules); "" = built-ins only.
	AgentRulesDir string
	// Sandbox hides alice's own directories from sessions and one-shot
	// runs (sandboxing.go); the zero value runs them unsandboxed.
	Sandbox SandboxOptions
}

// EventKind names a workspace event.
type EventKind string

// Workspace events published on the manager's broker.
const (
	EventWorkspaceCreated EventKind = "workspace.created"
	EventWorkspaceRemoved EventKind = "workspace.removed"
	EventSessionState     EventKind = "session.state"
)

// Event is a change the TUI may want to redraw for.
type Event struct {
	Kind        EventKind
	WorkspaceID string
	SessionID   string
	State       SessionState
	Reason      string
	Status      *AgentStatus // EventAgentState only
}

// Errors returned by the manager.
var (
	ErrWorkspaceNotFound = errors.New("workspace not found")
	ErrSessionNotFound   = errors.New("session not found")
	ErrTagTaken          = errors.New("tag already in use")
	ErrClosed            = errors.New("workspace manager is closed")
)

// Manager owns the workspace registry and every live session.
type Manager struct {
	opts   Options
	log    *slog.Logger
	events *pubsub.Broker[Event]

	mu         sync.Mutex
	workspaces []Workspace
	records    map[string][]SessionRecord // by workspace id
	sessions   map[string]*Session        // live sessions by record id
	closed     bool
	status     *statusHub
	budget     *ScrollBudget // shared by every session's scrollback
	sandbox    sandboxState
}

// NewManager loads the registry (creating Root) and flips session records
// left "running" by a previous process to "paused".
func NewManager(opts Options) (*Manager, error) {
	if opts.Root == "" {
		return nil, errors.New("workspace: Options.Root is required")
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.RespawnDelay <= 0 {
		opts.RespawnDelay = time.Second
	}
	if opts.ScrollbackLines <= 0 {
		opts.ScrollbackLines = DefaultScrollbackLines
	}
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, err
	}
	opts.Root = root
	for _, d := range []string{root, filepath.Join(root, "state", "sessions"), filepath.Join(root, "state", "scrollback")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("workspace: %w", err)
		}
	}
	ws, err := loadRegistry(filepath.Join(root, "workspaces.json"))
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	m := &Manager{opts: opts, log: opts.Logger, events: pubsub.New[Event](), workspaces: ws,
		records: map[string][]SessionRecord{}, sessions: map[string]*Session{}, budget: NewScrollBudget(opts.ScrollbackBytes)}
	m.status = newStatusHub(m)
	if len(opts.Sandbox.Hide) > 0 {
		m.Sandbox() // probe once, and log the answer, at start
	}
	for _, w := range ws {
		recs, err := loadRecords(m.recordsPath(w.ID))
		if err != nil {
			m.log.Warn("workspace: unreadable session records; starting empty", "ws", w.ID, "err", err)
			continue
		}
		changed := false
		for i := range recs {
			if recs[i].State == RecordRunning {
				recs[i].State, changed = RecordPaused, true
			}
		}
		m.records[w.ID] = recs
		if changed {
			if err := saveRecords(m.recordsPath(w.ID), recs); err != nil {
				m.log.Warn("workspace: save session records", "ws", w.ID, "err", err)
			}
		}
	}
	return m, nil
}

func (m *Manager) mcpURL() string {
	if m.opts.MCPURL != nil {
		if u := m.opts.MCPURL(); u != "" {
			return strings.TrimRight(u, "/")
		}
	}
	return "http://127.0.0.1:3001/mcp"
}

func (m *Manager) registryPath() string { return filepath.Join(m.opts.Root, "workspaces.json") }
func (m *Manager) recordsPath(wsID string) string {
	return filepath.Join(m.opts.Root, "state", "sessions", wsID+".json")
}
func (m *Manager) scrollbackPath(wsID, sid string) string {
	return filepath.Join(m.opts.Root, "state", "scrollback", wsID, sid+".bin")
}

// Subscribe streams workspace and session events until ctx ends or Close.
func (m *Manager) Subscribe(ctx context.Context) <-chan Event { return m.events.Subscribe(ctx) }

// Templates lists the available templates.
func (m *Manager) Templates() []Template { return Templates() }

// Create makes a workspace from a template: directory, files, .mcp.json,
// git repository with an initial commit. agents may be nil (template
// defaults).
func (m *Manager) Create(ctx context.Context, tag, template string, agents []Agent) (Workspace, error) {
	if err := ValidateTag(tag); err != nil {
		return Workspace{}, err
	}
	t, err := loadTemplate(template)
	if err != nil {
		return Workspace{}, err
	}
	if len(agents) == 0 {
		agents = t.DefaultAgents
	}
	for _, a := range agents {
		if !a.Valid() {
			return Workspace{}, fmt.Errorf("unknown agent %q (want %s)", a, AgentNames)
		}
	}
	if err := ctx.Err(); err != nil {
		return Workspace{}, err
	}
	id := uuid.NewString()
	ws := Workspace{ID: id, Tag: tag, Label: tag, Dir: filepath.Join(m.opts.Root, id), Template: t.Name,
		CreatedAt: time.Now().UTC(), Agents: slices.Clone(agents)}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return Workspace{}, ErrClosed
	}
	if slices.ContainsFunc(m.workspaces, func(w Workspace) bool { return w.Tag == tag }) {
		m.mu.Unlock()
		return Workspace{}, fmt.Errorf("%w: %s", ErrTagTaken, tag)
	}
	m.workspaces = append(m.workspaces, ws) // reserve the tag while scaffolding
	m.mu.Unlock()

	persona := ""
	if m.opts.Persona != nil {
		persona = m.opts.Persona()
	}
	err = os.Mkdir(ws.Dir, 0o755)
	if err == nil {
		err = scaffold(ws.Dir, t, ws, m.mcpURL(), persona)
	}
	m.mu.Lock()
	if err == nil {
		err = saveRegistry(m.registryPath(), m.workspaces)
	}
	if err != nil {
		m.workspaces = slices.DeleteFunc(m.workspaces, func(w Workspace) bool { return w.ID == id })
	}
	m.mu.Unlock()
	if err != nil {
		_ = os.RemoveAll(ws.Dir)
		return Workspace{}, fmt.Errorf("create workspace %s: %w", tag, err)
	}
	m.log.Info("workspace created", "id", id, "tag", tag, "template", t.Name)
	m.events.PublishMustDeliver(Event{Kind: EventWorkspaceCreated, WorkspaceID: id})
	return ws, nil
}

// List returns every workspace, oldest first.
func (m *Manager) List() []Workspace {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.workspaces)
}

// Get returns a workspace by id, or by tag.
func (m *Manager) Get(idOrTag string) (Workspace, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.getLocked(idOrTag)
}

func (m *Manager) getLocked(idOrTag string) (Workspace, bool) {
	for _, w := range m.workspaces {
		if w.ID == idOrTag {
			return w, true
		}
	}
	for _, w := range m.workspaces {
		if w.Tag == idOrTag {
			return w, true
		}
	}
	return Workspace{}, false
}

// Lookup resolves the workspace id of a /mcp/{wsId} request. Only ids are
// accepted (not tags): the URL is the identity.
func (m *Manager) Lookup(id string) (core.WorkspaceIdentity, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, w := range m.workspaces {
		if w.ID == id {
			return core.WorkspaceIdentity{ID: w.ID, Label: w.DisplayName(), Dir: w.Dir}, true
		}
	}
	return core.WorkspaceIdentity{}, false
}

// Remove stops the workspace's sessions, drops it from the registry and
// deletes its directory and state.
func (m *Manager) Remove(id string) error { return m.RemoveWorkspace(id, true) }

// RemoveWorkspace stops the workspace's sessions (no process left behind)
// and drops it from the registry with its session state. The directory
// (the agent's work) is deleted only when removeDir is set.
func (m *Manager) RemoveWorkspace(id string, removeDir bool) error {
	m.mu.Lock()
	w, ok := m.getLocked(id)
	if !ok {
		m.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrWorkspaceNotFound, id)
	}
	var live []*Session
	for sid, s := range m.sessions {
		if s.ws.ID == w.ID {
			live = append(live, s)
			delete(m.sessions, sid)
		}
	}
	m.mu.Unlock()
	for _, s := range live {
		s.close()
		m.status.detach(s.id)
	}
	m.mu.Lock()
	m.workspaces = slices.DeleteFunc(m.workspaces, func(x Workspace) bool { return x.ID == w.ID })
	delete(m.records, w.ID)
	err := saveRegistry(m.registryPath(), m.workspaces)
	m.mu.Unlock()
	if err != nil {
		return fmt.Errorf("remove workspace: %w", err)
	}
	_ = os.Remove(m.recordsPath(w.ID))
	_ = os.RemoveAll(filepath.Join(m.opts.Root, "state", "scrollback", w.ID))
	if removeDir {
		// The registry is a file a person can edit: only ever delete a
		// directory inside the workspaces root.
		if !within(m.opts.Root, w.Dir) {
			m.log.Warn("workspace: directory outside the workspaces root kept", "dir", w.Dir, "root", m.opts.Root)
		} else if err := os.RemoveAll(w.Dir); err != nil {
			m.log.Warn("workspace: remove directory", "dir", w.Dir, "err", err)
		}
	}
	m.events.PublishMustDeliver(Event{Kind: EventWorkspaceRemoved, WorkspaceID: w.ID})
	return nil
}

// Archive stops the workspace's sessions and marks it archived (kept on
// disk and in the registry, listed last); Unarchive clears the mark.
func (m *Manager) Archive(id string, archived bool) error {
	m.mu.Lock()
	w, ok := m.getLocked(id)
	if !ok {
		m.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrWorkspaceNotFound, id)
	}
	var live []*Session
	if archived {
		for _, s := range m.sessions {
			if s.ws.ID == w.ID {
				live = append(live, s)
			}
		}
	}
	m.mu.Unlock()
	for _, s := range live {
		s.Stop()
	}
	m.mu.Lock()
	for i := range m.workspaces {
		if m.workspaces[i].ID == w.ID {
			m.workspaces[i].Archived = archived
		}
	}
	err := saveRegistry(m.registryPath(), m.workspaces)
	m.mu.Unlock()
	if err != nil {
		return fmt.Errorf("archive workspace: %w", err)
	}
	m.events.PublishMustDeliver(Event{Kind: EventWorkspaceCreated, WorkspaceID: w.ID})
	return nil
}

// refreshMCPConfig rewrites .mcp.json when alice's MCP URL changed since
// the workspace was created (e.g. a different port).
//
// The workspace is the agents': .mcp.json may be a symlink a session put
// there. It is read through an os.Root (never out of the workspace) and
// replaced by renaming a new file over it, which replaces a symlink
// instead of writing where it points.
func (m *Manager) refreshMCPConfig(w Workspace) {
	want := MCPConfig(m.mcpURL(), w.ID)
	root, err := os.OpenRoot(w.Dir)
	if err != nil {
		m.log.Warn("workspace: refresh .mcp.json", "ws", w.ID, "err", err)
		return
	}
	defer root.Close()
	if fi, err := root.Lstat(".mcp.json"); err == nil && fi.Mode().IsRegular() {
		if got, _, err := readRegular(root, ".mcp.json", 1<<20); err == nil && string(got) == string(want) {
			return
		}
	}
	// A fresh file of alice's own (O_EXCL: not one a session put there,
	// a FIFO included), renamed over .mcp.json.
	tmp := fmt.Sprintf(".mcp.json.alice-%d", os.Getpid())
	_ = root.Remove(tmp)
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		_, err = f.Write(want)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = root.Rename(tmp, ".mcp.json")
		}
	}
	if err != nil {
		_ = root.Remove(tmp)
		m.log.Warn("workspace: refresh .mcp.json", "ws", w.ID, "err", err)
	}
}

// Close stops every session's process tree (no orphans survive alice),
// marks their records paused and ends event subscriptions.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	live := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		live = append(live, s)
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range live {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.close()
		}()
	}
	wg.Wait()
	m.status.close()
	m.events.Close()
	return nil
}

// within reports whether path is strictly inside root (after cleaning and
// resolving symlinks where they exist).
func within(root, path string) bool {
	abs := func(p string) string {
		p, _ = filepath.Abs(p)
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	rel, err := filepath.Rel(abs(root), abs(path))
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
