package workspaces

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// diffView shows what changed in a workspace since its sessions started,
// file by file with syntax highlighting, and commits (accepts) or discards
// the changes behind a confirmation. The Workspaces pane owns one while
// it is open and forwards messages and keys to it.
type diffView struct {
	m       kit.Host
	core    any
	ws      WorkspaceInfo
	diff    WorkspaceDiff
	lines   [][]string // rendered patch lines per file
	sel     int
	scroll  int
	w, h    int
	loading bool
	// failed is why the last load failed ("" when it did not): the view
	// says so instead of showing an empty diff.
	failed string
}

// diffKeyMap holds the diff view's bindings, with help text.
type diffKeyMap struct {
	Up, Down, PageUp, PageDown, Commit, Discard, DiscardAll, Refresh, Back key.Binding
}

var diffKeys = diffKeyMap{
	Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous file")),
	Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next file")),
	PageUp:     key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "scroll diff up")),
	PageDown:   key.NewBinding(key.WithKeys("pgdown", "ctrl+d", "space"), key.WithHelp("pgdn", "scroll diff down")),
	Commit:     key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "commit (accept) all changes")),
	Discard:    key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "discard this file's changes")),
	DiscardAll: key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "discard all changes")),
	Refresh:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
	Back:       key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close diff")),
}

func (k diffKeyMap) help() []key.Binding {
	return []key.Binding{k.Commit, k.Discard, k.DiscardAll, k.Down, k.Up, k.PageDown, k.PageUp, k.Refresh, k.Back}
}

// diffLoadedMsg carries a loaded, pre-rendered diff.
type diffLoadedMsg struct {
	wsID  string
	diff  WorkspaceDiff
	lines [][]string
	err   error
}

// diffActionMsg reports a finished commit or discard.
type diffActionMsg struct {
	text string
	err  error
}

func newDiffView(m kit.Host, core any, ws WorkspaceInfo, w, h int) *diffView {
	return &diffView{m: m, core: core, ws: ws, w: w, h: h, loading: true}
}

// Load reads the diff and renders every file's patch off the UI goroutine.
func (d *diffView) Load() tea.Cmd {
	ac, ok := d.core.(AgentCore)
	if !ok {
		return kit.ErrCmd(errors.New("this core cannot show workspace diffs"))
	}
	wsID, st := d.ws.ID, d.m.Styles()
	return func() tea.Msg {
		diff, err := ac.WorkspaceDiff(wsID)
		if err != nil {
			return diffLoadedMsg{wsID: wsID, err: err}
		}
		lines := make([][]string, len(diff.Files))
		for i, f := range diff.Files {
			lines[i] = renderPatch(*st, f)
		}
		return diffLoadedMsg{wsID: wsID, diff: diff, lines: lines}
	}
}

// Update handles the view's messages and keys; closed reports that the
// person left the view.
func (d *diffView) Update(msg tea.Msg) (closed bool, cmd tea.Cmd) {
	switch msg := msg.(type) {
	case diffLoadedMsg:
		if msg.wsID != d.ws.ID {
			return false, nil
		}
		d.loading = false
		if msg.err != nil {
			d.failed = kit.ShownLine(msg.err.Error())
			return false, kit.ErrCmd(msg.err)
		}
		d.failed = ""
		prev := kit.KeyAt(d.diff.Files, diffFileKey, d.sel)
		d.diff, d.lines = msg.diff, msg.lines
		d.sel = kit.Reselect(d.diff.Files, diffFileKey, prev, d.sel)
		d.scroll = 0
		return false, nil
	case diffActionMsg:
		if msg.err != nil {
			return false, tea.Batch(kit.ErrCmd(msg.err), d.Load())
		}
		text := msg.text
		return false, tea.Batch(d.Load(), func() tea.Msg { return kit.FlashMsg(text) })
	case tea.KeyPressMsg:
		return d.onKey(msg)
	}
	return false, nil
}

func (d *diffView) onKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := diffKeys
	n := len(d.diff.Files)
	switch {
	case key.Matches(msg, k.Back):
		return true, nil
	case key.Matches(msg, k.Up):
		if d.sel > 0 {
			d.sel, d.scroll = d.sel-1, 0
		}
	case key.Matches(msg, k.Down):
		if d.sel < n-1 {
			d.sel, d.scroll = d.sel+1, 0
		}
	case key.Matches(msg, k.PageDown):
		if d.sel < len(d.lines) {
			d.scroll = min(d.scroll+max(1, d.patchRows()-1), max(0, len(d.lines[d.sel])-1))
		}
	case key.Matches(msg, k.PageUp):
		d.scroll = max(0, d.scroll-max(1, d.patchRows()-1))
	case key.Matches(msg, k.Refresh):
		d.loading = true
		return false, d.Load()
	case key.Matches(msg, k.Commit) && n > 0:
		return false, d.confirm(fmt.Sprintf("Commit %d changed file(s) in %s?", n, d.ws.Tag),
			"They become a commit in the workspace's git history\nand the new base of this diff.",
			func(ac AgentCore) diffActionMsg {
				h, err := ac.CommitWorkspace(d.ws.ID, "")
				return diffActionMsg{text: "committed " + short(h), err: err}
			})
	case key.Matches(msg, k.Discard) && n > 0:
		f := d.diff.Files[d.sel]
		return false, d.confirm("Discard the changes to "+kit.ShownLine(f.Path)+"?", discardBody([]DiffFile{f}, d.diff.Base),
			func(ac AgentCore) diffActionMsg {
				_, err := ac.DiscardWorkspace(d.ws.ID, []string{f.Path})
				return diffActionMsg{text: "discarded " + kit.ShownLine(f.Path), err: err}
			})
	case key.Matches(msg, k.DiscardAll) && n > 0:
		return false, d.confirm(fmt.Sprintf("Discard ALL %d changes in %s?", n, d.ws.Tag), discardBody(d.diff.Files, d.diff.Base),
			func(ac AgentCore) diffActionMsg {
				done, err := ac.DiscardWorkspace(d.ws.ID, nil)
				return diffActionMsg{text: fmt.Sprintf("discarded %d file(s)", len(done)), err: err}
			})
	}
	return false, nil
}

// confirm opens the grace-period dialog; yes runs act in a Cmd.
func (d *diffView) confirm(title, body string, act func(AgentCore) diffActionMsg) tea.Cmd {
	ac, ok := d.core.(AgentCore)
	if !ok {
		return nil
	}
	d.m.OpenDialog(title, body, func() tea.Msg { return act(ac) })
	return nil
}

func discardBody(files []DiffFile, base string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Files go back to their content at %s;\nfiles the agent added are deleted. This cannot be undone.\n", short(base))
	for i, f := range files {
		if i == 8 {
			fmt.Fprintf(&b, "\n  … and %d more", len(files)-i)
			break
		}
		fmt.Fprintf(&b, "\n  %s %s", changeLetter(f), kit.ShownLine(f.Path))
	}
	return b.String()
}

func short(h string) string { return h[:min(len(h), 8)] }

func changeLetter(f DiffFile) string {
	switch f.Change {
	case "added":
		return "A"
	case "deleted":
		return "D"
	}
	return "M"
}

// listRows is how many rows the file list takes.
func (d *diffView) listRows() int {
	return min(len(d.diff.Files), max(1, (d.h-2)/3))
}

// patchRows is how many rows the patch of the selected file gets.
func (d *diffView) patchRows() int { return max(1, d.h-3-d.listRows()) }

func (d *diffView) View() string {
	st := d.m.Styles()
	adds, dels := 0, 0
	for _, f := range d.diff.Files {
		adds, dels = adds+f.Additions, dels+f.Deletions
	}
	title := st.Title.Render("Diff · "+d.ws.Tag) + st.Muted.Render(fmt.Sprintf(" · since %s · %d file(s) ", short(d.diff.Base), len(d.diff.Files))) +
		st.Profit.Render(fmt.Sprintf("+%d", adds)) + " " + st.Loss.Render(fmt.Sprintf("−%d", dels))
	if d.loading {
		return kit.FitHeight(kit.Stack(title, "", st.Muted.Render("loading…")), d.h)
	}
	if d.failed != "" {
		return kit.FitHeight(kit.Stack(title, "", st.Error.Render(ansi.Wrap("The diff could not be read: "+d.failed, max(10, d.w), " ")),
			"", st.Muted.Render("r to try again · esc to close")), d.h)
	}
	if len(d.diff.Files) == 0 {
		return kit.FitHeight(kit.Stack(title, "", st.Muted.Render("No changes since the sessions started. esc to close.")), d.h)
	}
	rows := []string{ansi.Truncate(title, d.w, "…")}
	n := d.listRows()
	first := min(max(0, d.sel-n+1), max(0, len(d.diff.Files)-n))
	for i := first; i < first+n && i < len(d.diff.Files); i++ {
		f := d.diff.Files[i]
		stat := st.Profit.Render(fmt.Sprintf("+%d", f.Additions)) + " " + st.Loss.Render(fmt.Sprintf("−%d", f.Deletions))
		switch {
		case f.Binary:
			stat = st.Muted.Render("binary")
		case f.TooLarge:
			stat = st.Muted.Render("too large to show")
		}
		row := fmt.Sprintf("%s  %-*s ", changeLetter(f), max(10, d.w-24), ansi.Truncate(kit.ShownLine(f.Path), max(10, d.w-24), "…")) + stat
		if i == d.sel {
			row = st.Selected.Render("› " + row)
		} else {
			row = "  " + row
		}
		rows = append(rows, ansi.Truncate(row, d.w, "…"))
	}
	rows = append(rows, st.Muted.Render(strings.Repeat("─", max(0, d.w))))
	patch := d.lines[d.sel]
	end := min(len(patch), d.scroll+d.patchRows())
	for _, l := range patch[min(d.scroll, end):end] {
		rows = append(rows, ansi.Truncate(l, d.w, "…"))
	}
	return kit.FitHeight(strings.Join(rows, "\n"), d.h)
}

// maxHighlightLines bounds syntax highlighting per file; longer patches
// are shown with diff colours only.
const maxHighlightLines = 4000

// renderPatch colours a unified diff: +/− markers from Styles, the code
// itself highlighted by chroma for the file's language.
func renderPatch(st kit.Styles, f DiffFile) []string {
	switch {
	case f.Binary:
		return []string{st.Muted.Render("Binary file " + f.Change + "; no text diff.")}
	case f.TooLarge:
		return []string{st.Muted.Render("File too large to diff (over 1 MiB).")}
	case f.Patch == "":
		return []string{st.Muted.Render("No textual change (mode or empty file).")}
	}
	lexer := lexers.Match(f.Path)
	if lexer == nil {
		lexer = lexers.Fallback
	}
	lexer = chroma.Coalesce(lexer)
	style := styles.Get(chromaStyle(st))
	form := formatters.Get("terminal16m")
	src := strings.Split(strings.TrimRight(f.Patch, "\n"), "\n")
	out := make([]string, 0, len(src))
	for i, l := range src {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			out = append(out, st.Muted.Render(kit.ShownLine(l)))
		case strings.HasPrefix(l, "@@"):
			out = append(out, st.Accent.Render(kit.ShownLine(l)))
		case strings.HasPrefix(l, "+"), strings.HasPrefix(l, "-"), strings.HasPrefix(l, " "):
			marker := st.Muted.Render(" ")
			switch l[0] {
			case '+':
				marker = st.Profit.Bold(true).Render("+")
			case '-':
				marker = st.Loss.Bold(true).Render("−")
			}
			// Tabs go to the code's own tab stops (after the marker
			// column), so indented lines keep their alignment.
			body := kit.ShownLine(l[1:])
			if i < maxHighlightLines {
				body = highlightCode(lexer, style, form, body)
			}
			out = append(out, marker+body)
		default:
			out = append(out, st.Muted.Render(kit.ShownLine(l)))
		}
	}
	return out
}

// chromaStyle picks the code theme that matches the UI palette.
func chromaStyle(st kit.Styles) string {
	if st.Dark {
		return "github-dark"
	}
	return "github"
}

func highlightCode(lexer chroma.Lexer, style *chroma.Style, form chroma.Formatter, line string) string {
	it, err := lexer.Tokenise(nil, line)
	if err != nil {
		return line
	}
	var b bytes.Buffer
	if err := form.Format(&b, style, it); err != nil {
		return line
	}
	return strings.TrimRight(b.String(), "\n")
}

func diffFileKey(f DiffFile) string { return f.Path }
