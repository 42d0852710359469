// Package core wires Alice together: the tool registry every domain package
// registers into, the event bus the UI listens to, and (in sub-packages)
// sessions, the agent pipeline, providers, inbox and scheduling. core never
// imports the TUI; the TUI talks to core through an interface it declares.
package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// ToolHandler runs a tool. args is the raw JSON object the caller sent
// (never nil: "{}" when absent). The result is marshalled to JSON for the
// model unless it is a *ToolResult. A returned error becomes a tool error
// the model can read; handlers must never panic on bad input.
type ToolHandler func(ctx context.Context, args json.RawMessage) (any, error)

// Tool is one capability the agent (and MCP clients) can call. There is a
// single Tool type for every consumer: providers and MCP adapt from it.
type Tool struct {
	Name        string
	Group       string
	Description string
	// InputSchema is a JSON Schema object: {"type":"object","properties":…}.
	InputSchema json.RawMessage
	Handler     ToolHandler
}

// ContentBlock is a piece of rich tool output (text or image).
type ContentBlock struct {
	Type     string `json:"type"` // "text" or "image"
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"` // base64 for images
	MIMEType string `json:"mimeType,omitempty"`
}

// ToolResult lets a handler return content blocks instead of a JSON value.
type ToolResult struct {
	Content []ContentBlock `json:"content"`
	IsError bool           `json:"isError,omitempty"`
}

// ToolInfo is a catalogue row for UIs.
type ToolInfo struct {
	Name        string `json:"name"`
	Group       string `json:"group"`
	Description string `json:"description"`
	Disabled    bool   `json:"disabled"`
}

// ToolRegistry is what domain packages need to publish their tools.
type ToolRegistry interface {
	Register(tools ...Tool)
}

// ToolCenter is the global tool registry. The disabled list is fetched on
// every call (tools.json is "read on each call") so edits apply at once.
type ToolCenter struct {
	mu       sync.RWMutex
	tools    map[string]Tool
	order    []string
	disabled func() []string
}

// NewToolCenter builds a registry; disabled may be nil.
func NewToolCenter(disabled func() []string) *ToolCenter {
	if disabled == nil {
		disabled = func() []string { return nil }
	}
	return &ToolCenter{tools: map[string]Tool{}, disabled: disabled}
}

// Register adds tools; a later registration with the same name replaces the
// earlier one (as in the reference). It panics on a tool without a name,
// handler or valid schema: that is a programming error caught by tests.
func (tc *ToolCenter) Register(tools ...Tool) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	for _, t := range tools {
		if err := t.check(); err != nil {
			panic(err)
		}
		if _, ok := tc.tools[t.Name]; !ok {
			tc.order = append(tc.order, t.Name)
		}
		tc.tools[t.Name] = t
	}
}

func (t Tool) check() error {
	if t.Name == "" || t.Handler == nil {
		return fmt.Errorf("tool %q: name and handler are required", t.Name)
	}
	if len(t.InputSchema) == 0 {
		return fmt.Errorf("tool %q: input schema is required", t.Name)
	}
	var s map[string]any
	if err := json.Unmarshal(t.InputSchema, &s); err != nil || s["type"] != "object" {
		return fmt.Errorf("tool %q: input schema must be a JSON object schema", t.Name)
	}
	return nil
}

func (tc *ToolCenter) disabledSet(extra []string) map[string]bool {
	set := map[string]bool{}
	for _, n := range tc.disabled() {
		set[n] = true
	}
	for _, n := range extra {
		set[n] = true
	}
	return set
}

// Tools returns the enabled tools in registration order, minus any names in
// extraDisabled (per-channel overrides).
func (tc *ToolCenter) Tools(extraDisabled ...string) []Tool {
	off := tc.disabledSet(extraDisabled)
	tc.mu.RLock()
	defer tc.mu.RUnlock()
	out := make([]Tool, 0, len(tc.order))
	for _, n := range tc.order {
		if !off[n] {
			out = append(out, tc.tools[n])
		}
	}
	return out
}

// Get returns an enabled tool by name.
func (tc *ToolCenter) Get(name string) (Tool, bool) {
	if tc.disabledSet(nil)[name] {
		return Tool{}, false
	}
	tc.mu.RLock()
	defer tc.mu.RUnlock()
	t, ok := tc.tools[name]
	return t, ok
}

// Inventory lists every registered tool, disabled ones marked, sorted by
// group then name.
func (tc *ToolCenter) Inventory() []ToolInfo {
	off := tc.disabledSet(nil)
	tc.mu.RLock()
	out := make([]ToolInfo, 0, len(tc.order))
	for _, n := range tc.order {
		t := tc.tools[n]
		d := t.Description
		if len(d) > 200 {
			d = d[:200]
		}
		out = append(out, ToolInfo{Name: n, Group: t.Group, Description: d, Disabled: off[n]})
	}
	tc.mu.RUnlock()
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// ErrUnknownTool is returned by Call for a missing or disabled tool.
var ErrUnknownTool = errors.New("unknown or disabled tool")

// Call runs a tool by name with panic protection, so a buggy handler turns
// into a tool error instead of taking down the process.
func (tc *ToolCenter) Call(ctx context.Context, name string, args json.RawMessage) (any, error) {
	t, ok := tc.Get(name)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownTool, name)
	}
	return t.Invoke(ctx, args)
}

// Invoke runs the tool's handler with panic protection and normalised args.
// An error's text is clipped to MaxErrorChars (errors.Is/As still see it
// whole).
func (t Tool) Invoke(ctx context.Context, args json.RawMessage) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, clipError(fmt.Errorf("tool %s failed: %v", t.Name, r))
		}
	}()
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = json.RawMessage("{}")
	}
	if err := CheckDuplicateKeys(args); err != nil {
		return nil, err
	}
	res, err = t.Handler(ctx, args)
	return res, clipError(err)
}

// ResultText renders a handler result as the text a model or MCP client
// sees: strings pass through, *ToolResult text blocks are joined, anything
// else is JSON.
func ResultText(v any) string {
	switch r := v.(type) {
	case nil:
		return "null"
	case string:
		return r
	case *ToolResult:
		var parts []string
		for _, c := range r.Content {
			if c.Type == "text" {
				parts = append(parts, c.Text)
			} else {
				parts = append(parts, "["+c.Type+"]")
			}
		}
		return strings.Join(parts, "\n")
	default:
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Sprintf("%v", r)
		}
		return string(b)
	}
}

// DecodeArgs decodes tool arguments strictly into v: unknown keys and wrong
// types become errors naming the key, suitable to return to the caller.
func DecodeArgs(args json.RawMessage, v any) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("invalid arguments: %q must be %s, got %s", te.Field, te.Type.String(), ClipText(te.Value, 40))
		}
		if strings.HasPrefix(err.Error(), "json: unknown field ") {
			return fmt.Errorf("invalid arguments: unknown parameter %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
		}
		return fmt.Errorf("invalid arguments: %v", err)
	}
	return nil
}

// Schema parses a JSON schema literal at registration time; it panics on
// malformed JSON because schemas are compile-time constants.
func Schema(s string) json.RawMessage {
	if !json.Valid([]byte(s)) {
		panic("core.Schema: invalid JSON: " + s)
	}
	return json.RawMessage(s)
}

// WorkspaceIdentity is who a workspace-scoped tool acts for. It comes from
// the /mcp/{wsId} URL, never from the model.
type WorkspaceIdentity struct {
	ID    string
	Label string
	Dir   string
}

// WorkspaceToolFactory builds a tool closed over a workspace identity.
type WorkspaceToolFactory struct {
	Name  string
	Build func(ws WorkspaceIdentity) Tool
}

// WorkspaceToolCenter holds factories for workspace-scoped tools such as
// inbox_push; tools are built per request for the requesting workspace.
type WorkspaceToolCenter struct {
	mu        sync.RWMutex
	factories []WorkspaceToolFactory
	disabled  func() []string
}

// NewWorkspaceToolCenter returns an empty center; disabled may be nil.
func NewWorkspaceToolCenter(disabled func() []string) *WorkspaceToolCenter {
	if disabled == nil {
		disabled = func() []string { return nil }
	}
	return &WorkspaceToolCenter{disabled: disabled}
}

// Register adds factories.
func (w *WorkspaceToolCenter) Register(f ...WorkspaceToolFactory) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.factories = append(w.factories, f...)
}

// ToolsFor builds the enabled workspace tools for one workspace.
func (w *WorkspaceToolCenter) ToolsFor(ws WorkspaceIdentity) []Tool {
	off := map[string]bool{}
	for _, n := range w.disabled() {
		off[n] = true
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	out := make([]Tool, 0, len(w.factories))
	for _, f := range w.factories {
		if !off[f.Name] {
			out = append(out, f.Build(ws))
		}
	}
	return out
}
