package mcppage

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// MCPCore is what the MCP page needs: the endpoints and the client
// sessions seen on them.
type MCPCore interface {
	MCPEndpoints() MCPEndpoints
	MCPClients() []MCPClient
}

// MCPEndpoints lists alice's MCP URLs.
type MCPEndpoints struct {
	Main       string
	Ask        string
	HasToken   bool // the main listener wants "Authorization: Bearer <token>"
	Workspaces []WorkspaceEndpoint
}

// WorkspaceEndpoint is one workspace's /mcp/{wsId} URL.
type WorkspaceEndpoint struct {
	ID, Tag, URL string
}

// MCPClient is one client session, identified from its initialize call.
type MCPClient struct {
	SessionID string
	Endpoint  string
	Name      string
	Version   string
	Connected time.Time
	LastCall  time.Time
	Calls     map[string]int
}

// mcpKeys are the MCP page's bindings.
type mcpKeys struct {
	Up, Down, Copy, Refresh key.Binding
}

func DefaultMCPKeys() mcpKeys {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return mcpKeys{
		Up:      b("↑/k", "previous item", "up", "k"),
		Down:    b("↓/j", "next item", "down", "j"),
		Copy:    b("y/c", "copy to clipboard (OSC 52)", "y", "c"),
		Refresh: b("r", "refresh", "r"),
	}
}

// mcpPane shows endpoints, connection snippets and connected clients.
type Pane struct {
	m       kit.Host
	core    any
	w, h    int
	focused bool
	keys    mcpKeys
	eps     MCPEndpoints
	clients []MCPClient
	sel     int // index into copyables()
}

func New(m kit.Host, core any) *Pane {
	return &Pane{m: m, core: core, keys: DefaultMCPKeys()}
}

func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h }
func (p *Pane) Focus()           { p.focused = true }
func (p *Pane) Blur()            { p.focused = false }
func (p *Pane) Capturing() bool  { return false }
func (p *Pane) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Up, p.keys.Down, p.keys.Copy, p.keys.Refresh}
}

type mcpMsg struct {
	eps     MCPEndpoints
	clients []MCPClient
}

func (p *Pane) Load() tea.Cmd {
	mc, ok := p.core.(MCPCore)
	if !ok {
		return nil
	}
	return func() tea.Msg { return mcpMsg{mc.MCPEndpoints(), mc.MCPClients()} }
}

// copyable is one line the person can copy.
type copyable struct{ label, text string }

func (p *Pane) copyables() []copyable {
	var out []copyable
	if p.eps.Main != "" {
		out = append(out, copyable{"main endpoint", p.eps.Main})
	}
	if p.eps.Ask != "" {
		out = append(out, copyable{"Ask endpoint", p.eps.Ask})
	}
	for _, w := range p.eps.Workspaces {
		out = append(out, copyable{"workspace " + w.Tag, w.URL})
	}
	if p.eps.Main != "" {
		out = append(out, copyable{"claude mcp add", claudeAddCommand(p.eps.Main, p.eps.HasToken)},
			copyable{".mcp.json", mcpJSONSnippet(p.eps.Main, p.eps.HasToken)})
	}
	return out
}

func copyableKey(c copyable) string { return c.label }

// claudeAddCommand is the one-liner that registers alice with Claude Code.
func claudeAddCommand(url string, token bool) string {
	s := "claude mcp add --transport http alice " + url
	if token {
		s += ` --header "Authorization: Bearer $ALICE_MCP_TOKEN"`
	}
	return s
}

// mcpJSONSnippet is a project .mcp.json for external clients.
func mcpJSONSnippet(url string, token bool) string {
	srv := map[string]any{"type": "http", "url": url}
	if token {
		srv["headers"] = map[string]string{"Authorization": "Bearer ${ALICE_MCP_TOKEN}"}
	}
	b, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{"alice": srv}}, "", "  ")
	return string(b)
}

func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case mcpMsg:
		prev := kit.KeyAt(p.copyables(), copyableKey, p.sel)
		p.eps, p.clients = msg.eps, msg.clients
		p.sel = kit.Reselect(p.copyables(), copyableKey, prev, p.sel)
	case tea.KeyPressMsg:
		k := p.keys
		items := p.copyables()
		switch {
		case key.Matches(msg, k.Up):
			p.sel = max(0, p.sel-1)
		case key.Matches(msg, k.Down):
			p.sel = min(max(0, len(items)-1), p.sel+1)
		case key.Matches(msg, k.Refresh):
			return p.Load()
		case key.Matches(msg, k.Copy):
			if p.sel < len(items) {
				it := items[p.sel]
				return tea.Batch(tea.SetClipboard(it.text), kit.FlashCmd("copied "+it.label+" to the clipboard"))
			}
		}
	}
	return nil
}

func (p *Pane) View() string {
	st := p.m.Styles()
	if _, ok := p.core.(MCPCore); !ok {
		return kit.Stack(st.Title.Render("MCP"), st.Muted.Render("MCP details are not available in this core"))
	}
	lines := []string{st.Title.Render("MCP") + st.Muted.Render("  ↑/↓ select · y copy")}
	items := p.copyables()
	// A multi-line item (.mcp.json) is shown whole when its lines fit in
	// the rows the page leaves free: the selected one first, then the
	// others in order. The selected one that does not fit whole shows as
	// many lines as fit and a "more" marker; the others show their first
	// line and a count.
	free := p.h - p.collapsedRows(items)
	shown := make([]int, len(items)) // extra lines shown per item
	take := func(i int) {
		n := strings.Count(items[i].text, "\n")
		if n == 0 || free <= 0 {
			return
		}
		switch {
		case n <= free:
			shown[i] = n
		case i == p.sel && free > 1:
			shown[i] = free - 1 // and the marker
		default:
			return
		}
		free -= n
		if shown[i] < n {
			free = 0
		}
	}
	if p.sel < len(items) {
		take(p.sel)
	}
	for i := range items {
		if i != p.sel {
			take(i)
		}
	}
	for i, it := range items {
		first, rest, _ := strings.Cut(it.text, "\n")
		more := strings.Split(rest, "\n")
		if rest == "" {
			more = nil
		}
		if len(more) > 0 && shown[i] == 0 {
			first += st.Muted.Render(fmt.Sprintf("  … %d more lines", len(more)))
		}
		label := kit.Cell(it.label, 24)
		row := "  " + label + " " + first
		if i == p.sel {
			row = st.Selected.Render(kit.PadRight(ansi.Truncate("  "+label+" "+ansi.Strip(first), p.w, "…"), p.w))
		} else {
			row = st.Muted.Render("  "+label+" ") + first
		}
		lines = append(lines, ansi.Truncate(row, p.w, "…"))
		for _, l := range more[:shown[i]] {
			lines = append(lines, ansi.Truncate(strings.Repeat(" ", 27)+l, p.w, "…"))
		}
		if n := len(more) - shown[i]; shown[i] > 0 && n > 0 {
			lines = append(lines, ansi.Truncate(strings.Repeat(" ", 27)+st.Muted.Render(fmt.Sprintf("↓ %d more lines · y copies it all", n)), p.w, "…"))
		}
	}
	if len(items) == 0 {
		lines = append(lines, st.Muted.Render("  the MCP listener is not running"))
	}
	lines = append(lines, "", st.Accent.Render(fmt.Sprintf("Connected clients (%d)", len(p.clients))))
	if len(p.clients) == 0 {
		lines = append(lines, st.Muted.Render("  none yet: connect one with the snippet above"))
	}
	now := p.m.Clock()
	for _, c := range p.clients {
		name := c.Name
		if name == "" {
			name = "(unnamed client)"
		}
		if c.Version != "" {
			name += " " + c.Version
		}
		last := "no calls yet"
		if !c.LastCall.IsZero() {
			last = "last call " + ago(now, c.LastCall)
		}
		lines = append(lines, ansi.Truncate(fmt.Sprintf("  %s  %s  %s  %s", st.Text.Render(name), st.Muted.Render(c.Endpoint),
			st.Muted.Render("connected "+ago(now, c.Connected)), st.Muted.Render(last)), p.w, "…"))
		if calls := callSummary(c.Calls); calls != "" {
			lines = append(lines, ansi.Truncate("      "+calls, p.w, "…"))
		}
	}
	return kit.FitHeight(strings.Join(lines, "\n"), p.h)
}

// collapsedRows is how many rows View takes with every item on one line.
func (p *Pane) collapsedRows(items []copyable) int {
	n := 1 + len(items) + 2 // title, items, blank, clients heading
	if len(items) == 0 {
		n++
	}
	if len(p.clients) == 0 {
		return n + 1
	}
	for _, c := range p.clients {
		n++
		if callSummary(c.Calls) != "" {
			n++
		}
	}
	return n
}

// callSummary renders calls per tool, most used first.
func callSummary(calls map[string]int) string {
	names := make([]string, 0, len(calls))
	for n := range calls {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if calls[names[i]] != calls[names[j]] {
			return calls[names[i]] > calls[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s×%d", n, calls[n])
	}
	return strings.Join(parts, "  ")
}

// ago is a short relative time ("12s ago", "3m ago").
func ago(now, t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", max(0, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return t.Format("2006-01-02 15:04")
}

// Actions lists the MCP page's palette entries.
func (p *Pane) Actions() []kit.Action {
	var out []kit.Action
	for i, it := range p.copyables() {
		i, it := i, it
		out = append(out, kit.Action{ID: "mcp.copy." + it.label, Title: "MCP: copy " + it.label, Group: "MCP", Keywords: "clipboard url snippet claude",
			Run: func() tea.Cmd {
				p.m.Show(p)
				p.sel = i
				return kit.Press(p, p.keys.Copy)
			}})
	}
	return out
}
