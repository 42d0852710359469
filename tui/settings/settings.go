package settings

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// settingsPage names a page of the Settings pane.
type settingsPage int

const (
	pageProvider settingsPage = iota
	pageAccounts
	pageAutomation
	pageConnectors
	pageNews
	pageTools
	pagePersona
	pageChannels
	SettingsPageCount
)

var settingsPageNames = [SettingsPageCount]string{"AI provider", "Accounts", "Automation", "Connectors", "News", "Tools", "Persona", "Channels"}

// SettingsKeys drive the Settings pane and its forms.
type SettingsKeys struct {
	PrevPage, NextPage, Up, Down, Add, Edit, Toggle, Delete, Test, SetActive, Channel, RunNow,
	AutoApprove, Guards, NewToken, Revoke, Refresh, Reconnect, ChannelTools, Archive, NewChannel, Filter key.Binding
	NextField, PrevField, Submit, Cancel key.Binding
}

// DefaultSettingsKeys is the Settings pane's layout.
func DefaultSettingsKeys() SettingsKeys {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return SettingsKeys{
		PrevPage:    b("[", "previous page", "[", "left"),
		NextPage:    b("]", "next page", "]", "right"),
		Up:          b("↑/k", "up", "up", "k"),
		Down:        b("↓/j", "down", "down", "j"),
		Add:         b("a", "add", "a"),
		Edit:        b("e/enter", "edit", "e", "enter"),
		Toggle:      b("space", "enable/disable", "space", " "),
		Delete:      b("d", "delete", "d"),
		Test:        b("t", "test", "t"),
		SetActive:   b("s", "make active", "s"),
		Channel:     b("c", "channel override", "c"),
		RunNow:      b("n", "run now", "n"),
		AutoApprove: b("A", "toggle autoApprove", "A"),
		Guards:      b("g", "edit guards", "g"),
		NewToken:    b("T", "new token", "T"),
		Revoke:      b("x", "revoke", "x"),
		Refresh:     b("r", "reload from disk", "r"),
		Reconnect:   b("R", "reconnect", "R"),
		// The Channels page: pick the tools a channel hides; archive or
		// restore it (its session stays).
		ChannelTools: b("o", "tools off in channel", "o"),
		Archive:      b("d", "archive/restore", "d"),
		NewChannel:   b("n", "new channel", "n"),
		Filter:       b("/", "filter the tools", "/"),
		NextField:    b("tab/enter", "next field", "tab", "enter", "down"),
		PrevField:    b("shift+tab", "previous field", "shift+tab", "up"),
		Submit:       b("ctrl+s", "save", "ctrl+s"),
		Cancel:       b("esc", "cancel", "esc"),
	}
}

// settingsPane is the Settings tab: every configuration a user changes,
// without hand-edited JSON. Pages are rows plus single-key actions; edits
// open a modal form; irreversible actions confirm through OpenDialog.
type Pane struct {
	m       kit.Host
	core    any
	sc      SettingsCore
	keys    SettingsKeys
	w, h    int
	focused bool
	page    settingsPage
	sel     int
	Form    *settingsForm
	notice  string // shown once (a new token, a test result)
	// pending is the in-progress notice ("running …"), cleared when the
	// action's result (success or error) arrives.
	pending string

	prov    ProviderSettings
	accts   []AccountSetting
	presets []AccountPreset
	guards  []GuardType
	jobs    []CronJobSetting
	hb      HeartbeatSetting
	conn    ConnectorSetting
	news    NewsSetting
	tools   []ToolSetting
	chans   ChannelSettings
	picker  *toolPicker // the Channels page's disabled-tools picker
	// selectAfter is the row key the next load selects (an item just
	// created), then cleared.
	selectAfter string

	personaPath, personaText string
	loadErr                  string
	// pageTop is the first line of a page's window on the last frame
	// (pageView), per page shown.
	pageTop struct {
		page settingsPage
		top  int
	}
}

func New(m kit.Host, core any) *Pane {
	p := &Pane{m: m, core: core, keys: DefaultSettingsKeys()}
	p.sc, _ = core.(SettingsCore)
	return p
}

func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h }
func (p *Pane) Focus()           { p.focused = true }
func (p *Pane) Blur()            { p.focused = false }

// Capturing: a form takes every key (typing "a" into a field is text),
// the tool picker every key but ctrl+c.
func (p *Pane) Capturing() bool { return p.Form != nil || p.picker != nil }

// Modal reports that the pane wants tab/shift+tab too (form navigation).
func (p *Pane) Modal() bool { return p.Form != nil || p.picker != nil }

// ShortHelp lists the keys of the current page.
// AllKeys is what help lists: every page's keys, not only the shown
// page's footer (space, A, g, R, T, x, n, o were missing from help).
func (p *Pane) AllKeys() []key.Binding {
	k := p.keys
	return []key.Binding{k.PrevPage, k.NextPage, k.Up, k.Down, k.Add, k.Edit, k.Toggle, k.Delete, k.Test,
		k.SetActive, k.Channel, k.RunNow, k.AutoApprove, k.Guards, k.NewToken, k.Revoke, k.Refresh, k.Reconnect,
		k.ChannelTools, k.Archive, k.NewChannel, k.Filter, k.NextField, k.PrevField, k.Submit, k.Cancel}
}

func (p *Pane) ShortHelp() []key.Binding {
	k := p.keys
	if p.Form != nil {
		return []key.Binding{k.NextField, k.PrevField, k.Submit, k.Cancel}
	}
	if p.picker != nil {
		return p.picker.help(k)
	}
	common := []key.Binding{k.PrevPage, k.NextPage, k.Up, k.Down, k.Refresh}
	switch p.page {
	case pageProvider:
		return append([]key.Binding{k.Add, k.Edit, k.Delete, k.SetActive, k.Test, k.Channel}, common...)
	case pageAccounts:
		return append([]key.Binding{k.Add, k.Toggle, k.AutoApprove, k.Guards, k.Reconnect, k.Delete}, common...)
	case pageAutomation:
		return append([]key.Binding{k.Add, k.Edit, k.Toggle, k.RunNow, k.Delete}, common...)
	case pageNews:
		return append([]key.Binding{k.Add, k.Toggle, k.Test, k.Delete}, common...)
	case pageTools:
		return append([]key.Binding{k.Toggle}, common...)
	case pagePersona:
		return append([]key.Binding{k.Edit}, common...)
	case pageChannels:
		if p.picker != nil {
			return p.picker.help(k)
		}
		return append([]key.Binding{k.NewChannel, k.Edit, k.ChannelTools, k.Archive}, common...)
	default:
		return append([]key.Binding{k.Edit, k.Test, k.NewToken, k.Revoke, k.Add}, common...)
	}
}

// settingsLoadedMsg carries every page's data.
type settingsLoadedMsg struct {
	prov    ProviderSettings
	accts   []AccountSetting
	presets []AccountPreset
	guards  []GuardType
	jobs    []CronJobSetting
	hb      HeartbeatSetting
	conn    ConnectorSetting
	news    NewsSetting
	tools   []ToolSetting
	chans   ChannelSettings
	persona [2]string
	err     error
}

// settingsDoneMsg is the result of a save or an action.
type settingsDoneMsg struct {
	text   string // flash on success
	notice string // shown in the pane until the next action
	err    error
	form   bool   // the action came from the open form
	sel    string // the row key to select once the pane reloads (a created item)
}

// SettingsPreviewMsg is a live preview for the open form, computed for
// the form's edit number seq (previews run concurrently and may arrive out
// of order; only the one for the latest edit is shown).
type SettingsPreviewMsg struct {
	Form *settingsForm
	Seq  int
	Text string
}

// Load reads all pages (small local files) in one Cmd.
func (p *Pane) Load() tea.Cmd {
	sc := p.sc
	if sc == nil {
		return nil
	}
	return func() tea.Msg {
		var r settingsLoadedMsg
		var errs []error
		var err error
		if r.prov, err = sc.AIProviders(); err != nil {
			errs = append(errs, err)
		}
		if r.accts, err = sc.AccountSettings(); err != nil {
			errs = append(errs, err)
		}
		r.presets = sc.AccountPresets()
		r.guards = sc.GuardTypes()
		if r.jobs, err = sc.CronJobs(); err != nil {
			errs = append(errs, err)
		}
		if r.hb, err = sc.Heartbeat(); err != nil {
			errs = append(errs, err)
		}
		if r.conn, err = sc.Connectors(); err != nil {
			errs = append(errs, err)
		}
		if r.news, err = sc.NewsFeeds(); err != nil {
			errs = append(errs, err)
		}
		if r.tools, err = sc.ToolList(); err != nil {
			errs = append(errs, err)
		}
		if r.persona[0], r.persona[1], err = sc.PersonaFile(false); err != nil {
			errs = append(errs, err)
		}
		if r.chans, err = sc.ChannelSettings(); err != nil {
			errs = append(errs, err)
		}
		r.err = errors.Join(errs...)
		return r
	}
}

// do runs an action off the UI goroutine and reports it as settingsDoneMsg.
func (p *Pane) do(fromForm bool, fn func(ctx context.Context) (string, error)) tea.Cmd {
	ctx := p.m.AppContext()
	return func() tea.Msg {
		text, err := fn(ctx)
		return settingsDoneMsg{text: text, err: err, form: fromForm}
	}
}

func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case settingsLoadedMsg:
		keep := p.selectedKey()
		if p.selectAfter != "" {
			keep, p.selectAfter = p.selectAfter, ""
		}
		p.prov, p.accts, p.presets, p.jobs, p.hb, p.conn = msg.prov, msg.accts, msg.presets, msg.jobs, msg.hb, msg.conn
		p.guards = msg.guards
		p.news, p.tools, p.personaPath, p.personaText = msg.news, msg.tools, msg.persona[0], msg.persona[1]
		p.chans = msg.chans
		p.loadErr = ""
		if msg.err != nil {
			p.loadErr = msg.err.Error()
		}
		p.reselect(keep)
		p.clampSel()
		return nil
	case settingsDoneMsg:
		p.settled()
		if msg.form && p.Form != nil {
			p.Form.busy = false
			if msg.err != nil {
				p.Form.setError(msg.err)
				return p.Load() // a conflict shows the file's current state behind the form
			}
			p.Form = nil
		}
		if msg.err != nil {
			return tea.Batch(kit.ErrCmd(msg.err), p.Load())
		}
		if msg.notice != "" {
			p.notice = msg.notice
		}
		p.selectAfter = msg.sel
		text := msg.text
		cmds := []tea.Cmd{p.Load(), p.m.LoadStatus()}
		if text != "" {
			cmds = append(cmds, func() tea.Msg { return kit.FlashMsg(text) })
		}
		return tea.Batch(cmds...)
	case PersonaOpenMsg:
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		return p.openEditor(msg.Path)
	case personaEditedMsg:
		if msg.err != nil {
			return tea.Batch(kit.ErrCmd(fmt.Errorf("editor: %w", msg.err)), p.Load())
		}
		return tea.Batch(p.Load(), func() tea.Msg { return kit.FlashMsg("persona reloaded: the next message uses it") })
	case pickerSavedMsg:
		return p.pickerSaved(msg)
	case settingsNoticeMsg:
		p.settled()
		p.notice = string(msg)
		return p.Load()
	case SettingsPreviewMsg:
		if msg.Form == p.Form && p.Form != nil && msg.Seq == p.Form.Seq {
			p.Form.Extra = msg.Text
		}
		return nil
	case settingsOpenFormMsg:
		p.Form = msg.form
		return msg.init
	case tea.KeyPressMsg, tea.PasteMsg:
		if p.Form != nil {
			cmd, closed := p.Form.update(msg)
			if closed {
				p.Form = nil
			}
			return cmd
		}
		if p.picker != nil {
			if k, ok := msg.(tea.KeyPressMsg); ok {
				return p.pickerKey(k)
			}
			return p.picker.paste(msg.(tea.PasteMsg))
		}
		if k, ok := msg.(tea.KeyPressMsg); ok {
			return p.onKey(k)
		}
	}
	return nil
}

// progress shows an in-progress notice until the action's result arrives.
func (p *Pane) progress(text string) { p.notice, p.pending = text, text }

// settled drops the in-progress notice once a result arrives (unless
// another notice has replaced it meanwhile).
func (p *Pane) settled() {
	if p.pending != "" && p.notice == p.pending {
		p.notice = ""
	}
	p.pending = ""
}

// settingsNoticeMsg shows a one-time notice (a token) and reloads.
type settingsNoticeMsg string

// settingsOpenFormMsg opens a form after an async step (the account
// preset choice opens the preset's own form).
type settingsOpenFormMsg struct {
	form *settingsForm
	init tea.Cmd
}

func (p *Pane) rows() int {
	switch p.page {
	case pageProvider:
		return len(p.prov.Profiles)
	case pageAccounts:
		return len(p.accts)
	case pageAutomation:
		return 1 + len(p.jobs) // heartbeat + jobs
	case pageNews:
		return len(p.news.Feeds)
	case pageTools:
		return len(p.tools)
	case pagePersona:
		return 0
	case pageChannels:
		return len(p.chans.Channels)
	default:
		return len(p.connRows())
	}
}

func (p *Pane) clampSel() {
	if n := p.rows(); p.sel >= n {
		p.sel = max(0, n-1)
	}
}

func (p *Pane) onKey(k tea.KeyPressMsg) tea.Cmd {
	if p.sc == nil {
		return nil
	}
	ks := p.keys
	switch {
	case key.Matches(k, ks.PrevPage):
		p.page, p.sel, p.notice = (p.page+SettingsPageCount-1)%SettingsPageCount, 0, ""
		return nil
	case key.Matches(k, ks.NextPage):
		p.page, p.sel, p.notice = (p.page+1)%SettingsPageCount, 0, ""
		return nil
	case key.Matches(k, ks.Up):
		if p.sel > 0 {
			p.sel--
		}
		return nil
	case key.Matches(k, ks.Down):
		if p.sel < p.rows()-1 {
			p.sel++
		}
		return nil
	case key.Matches(k, ks.Refresh):
		p.notice = ""
		return p.Load()
	}
	switch p.page {
	case pageProvider:
		return p.providerKey(k)
	case pageAccounts:
		return p.accountsKey(k)
	case pageAutomation:
		return p.automationKey(k)
	case pageNews:
		return p.newsKey(k)
	case pageTools:
		return p.toolsKey(k)
	case pagePersona:
		return p.personaKey(k)
	case pageChannels:
		return p.channelsKey(k)
	default:
		return p.connectorsKey(k)
	}
}

// Tick reloads the shown page (files edited on disk, cron results) unless
// a form is open, so nothing changes under the user's cursor mid-edit.
func (p *Pane) Tick() tea.Cmd {
	if !p.focused || p.Form != nil || p.picker != nil {
		return nil
	}
	return p.Load()
}

// showPage jumps to a page (palette actions, tests).
func (p *Pane) showPage(pg settingsPage) {
	p.page, p.sel, p.notice = pg, 0, ""
}

// View renders the page tabs, the page (or the open form) and a key hint.
func (p *Pane) View() string {
	st := p.m.Styles()
	if p.sc == nil {
		return st.Muted.Render("Settings are not available with this core.")
	}
	var tabs []string
	for i, n := range settingsPageNames {
		label := fmt.Sprintf(" %s ", n)
		if settingsPage(i) == p.page {
			tabs = append(tabs, st.Selected.Render(label))
		} else {
			tabs = append(tabs, st.TitleDim.Render(label))
		}
	}
	head := strings.Join(tabs, " ") + st.Muted.Render("   [ ] pages")
	if ansi.StringWidth(head) > p.w {
		// Too narrow for every page name: the current page, never cut off.
		head = st.Selected.Render(fmt.Sprintf(" %s ", settingsPageNames[p.page])) +
			st.Muted.Render(fmt.Sprintf("  page %d of %d · [ ] pages", int(p.page)+1, int(SettingsPageCount)))
	}
	var body string
	if p.Form != nil {
		body = p.Form.view(*st, p.w, p.h-2) // under the page tabs and a blank row
	} else if p.picker != nil {
		body = p.pickerView()
	} else {
		switch p.page {
		case pageProvider:
			body = p.providerView()
		case pageAccounts:
			body = p.accountsView()
		case pageAutomation:
			body = p.automationView()
		case pageNews:
			body = p.newsView()
		case pageTools:
			body = p.toolsView()
		case pagePersona:
			body = p.personaView()
		case pageChannels:
			body = p.channelsView()
		default:
			body = p.connectorsView()
		}
		return p.pageView(head, body)
	}
	lines := strings.Split(head+"\n\n"+body, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, p.w, "…")
	}
	return strings.Join(lines, "\n")
}

// Selectable rows carry a mark while a page is laid out (row), so that
// pageView finds the selected one and where the next begins; the marks
// are removed before anything is drawn.
const (
	markSelected = "\x00"
	markRow      = "\x01"
	// markDetail starts a line that belongs to the row above it (an
	// account's error): it stays in view with the selected row.
	markDetail = "\x02"
)

// pageView lays a page out under the page tabs (head): the page, the
// notice and the load error, then the page's key hints. When that is
// taller than the pane, the tabs and the hints stay and the rest is a
// window holding the selected row (with what belongs to it, up to the
// next row; the last row takes the page's end) and as much of the notice
// or error as fits, marked "↑/↓ N more" where rows are hidden. Every line
// is cut to the width by display cells, with "…".
func (p *Pane) pageView(head, body string) string {
	st := p.m.Styles()
	cut := func(l string) string { return ansi.Truncate(l, p.w, "…") }
	// the notice and the load error, each a block of lines
	var notes [][]string
	if p.notice != "" {
		notes = append(notes, strings.Split(wrapIndent(st.Warn.Render, p.notice, 0, p.w), "\n"))
	}
	if p.loadErr != "" {
		notes = append(notes, strings.Split(wrapIndent(st.Error.Render, "✗ "+p.loadErr, 0, p.w), "\n"))
	}
	var noteLines []string
	for _, n := range notes {
		for _, l := range n {
			noteLines = append(noteLines, cut(l))
		}
	}
	var hints []string
	for _, b := range p.ShortHelp()[:min(6, len(p.ShortHelp()))] {
		hints = append(hints, b.Help().Key+" "+b.Help().Desc)
	}
	hint := cut(st.Muted.Render(strings.Join(hints, " · ")))
	head = cut(head)

	mid := strings.Split(body, "\n")
	// tabs, blank, page, (blank, note)…, blank, hints
	fits := p.h <= 0 || 2+len(mid)+len(notes)+len(noteLines)+2 <= p.h
	for !fits && len(mid) > 1 && mid[len(mid)-1] == "" {
		mid = mid[:len(mid)-1] // the blank above the hints: no room for it
	}
	// The selected row and its detail lines; the last row takes the
	// page's end (the legend, the selection's details under the list).
	focusStart, focusEnd, last := -1, 0, true
	for i, l := range mid {
		switch {
		case strings.Contains(l, markSelected):
			focusStart, focusEnd = i, i+1
		case focusStart >= 0 && focusEnd == i && strings.HasPrefix(l, markDetail):
			focusEnd = i + 1
		case focusStart >= 0 && strings.Contains(l, markRow):
			last = false
		}
		mid[i] = cut(strings.NewReplacer(markSelected, "", markRow, "", markDetail, "").Replace(l))
	}
	switch {
	case focusStart < 0: // nothing to select: the page's top
		focusStart, focusEnd = 0, 0
	case last:
		focusEnd = len(mid)
	}
	if fits {
		out := append([]string{head, ""}, mid...)
		for _, n := range notes {
			out = append(out, "")
			for _, l := range n {
				out = append(out, cut(l))
			}
		}
		return strings.Join(append(out, "", hint), "\n")
	}
	// Taller than the pane: the tabs and the hints stay, the notice (the
	// result of the person's last action) stays above the hints in at
	// most half the rows, cut with "…"; the page scrolls in the rest.
	rows := p.h - 2
	if keep := max(1, rows/2); len(noteLines) > keep {
		noteLines = noteLines[:keep]
		noteLines[keep-1] = ansi.Truncate(noteLines[keep-1], p.w-1, "") + "…"
	}
	prev := 0
	if p.pageTop.page == p.page {
		prev = p.pageTop.top
	}
	window, top := windowFrom(*st, mid, rows-len(noteLines), prev, focusStart, focusEnd, -1, -1)
	// what View drew, so the next frame moves the window only as far as
	// the selection needs (as the inbox keeps its scroll)
	p.pageTop.page, p.pageTop.top = p.page, top
	out := append(append([]string{head}, window...), noteLines...)
	if len(out)+2 <= p.h { // the page fits after all, without its blanks: give back one
		out = append([]string{head, ""}, out[1:]...)
	}
	return strings.Join(append(out, hint), "\n")
}

// row renders one selectable row (marked for pageView).
func (p *Pane) row(i int, text string) string {
	if i == p.sel {
		return markSelected + p.m.Styles().Selected.Render("▸ "+text)
	}
	return markRow + "  " + text
}

// Actions lists every Settings page (and the main action of each) in the
// command palette.
func (p *Pane) Actions() []kit.Action {
	m, k := p.m, p.keys
	if p.sc == nil {
		return nil
	}
	open := func(pg settingsPage) func() tea.Cmd {
		return func() tea.Cmd {
			m.Show(p)
			p.Form, p.picker = nil, nil
			p.showPage(pg)
			return p.Load()
		}
	}
	then := func(pg settingsPage, b key.Binding) func() tea.Cmd {
		return func() tea.Cmd { return tea.Batch(open(pg)(), kit.Press(p, b)) }
	}
	return []kit.Action{
		{ID: "settings.ai", Title: "Settings: AI provider", Group: "Settings", Keywords: "model llm profile openai anthropic ollama", Run: open(pageProvider)},
		{ID: "settings.ai.add", Title: "Add an AI profile", Group: "Settings", Keywords: "model llm provider", Run: then(pageProvider, k.Add)},
		{ID: "settings.accounts", Title: "Settings: trading accounts", Group: "Settings", Keywords: "broker uta alpaca simulator guards autoapprove", Run: open(pageAccounts)},
		{ID: "settings.accounts.add", Title: "Add a trading account", Group: "Settings", Keywords: "broker paper simulator alpaca", Run: then(pageAccounts, k.Add)},
		{ID: "settings.automation", Title: "Settings: automation (cron, heartbeat)", Group: "Settings", Keywords: "schedule job cron heartbeat", Run: open(pageAutomation)},
		{ID: "settings.automation.add", Title: "Add a cron job", Group: "Settings", Keywords: "schedule", Run: then(pageAutomation, k.Add)},
		{ID: "settings.connectors", Title: "Settings: connectors and tokens", Group: "Settings", Keywords: "telegram ask mcp webhook token", Run: open(pageConnectors)},
		{ID: "settings.news", Title: "Settings: news feeds", Group: "Settings", Keywords: "rss atom feed", Run: open(pageNews)},
		{ID: "settings.tools", Title: "Settings: enable/disable tools", Group: "Settings", Keywords: "tools disable", Run: open(pageTools)},
		{ID: "settings.persona", Title: "Edit the persona in $EDITOR", Group: "Settings", Keywords: "persona system prompt editor", Run: then(pagePersona, k.Edit)},
		{ID: "settings.channels", Title: "Settings: chat channels (profile, tools, persona)", Group: "Settings", Keywords: "channel sub-channel profile disabled tools persona archive rename telegram ask", Run: open(pageChannels)},
		{ID: "settings.channels.new", Title: "Create a chat channel (Settings form)", Group: "Settings",
			Keywords: "channel sub-channel new add profile", Run: then(pageChannels, k.NewChannel)},
	}
}

// selectedKey names the selected row (a profile, account, job, feed or
// tool), so a reload that reorders or inserts rows keeps the cursor on it.
func (p *Pane) selectedKey() string {
	keys := p.rowKeys()
	if p.sel < len(keys) {
		return keys[p.sel]
	}
	return ""
}

func (p *Pane) reselect(k string) {
	p.sel = kit.Reselect(p.rowKeys(), func(s string) string { return s }, k, p.sel)
}

func (p *Pane) rowKeys() []string {
	var out []string
	switch p.page {
	case pageProvider:
		for _, x := range p.prov.Profiles {
			out = append(out, x.Name)
		}
	case pageAccounts:
		for _, x := range p.accts {
			out = append(out, x.ID)
		}
	case pageAutomation:
		out = append(out, "\x00heartbeat")
		for _, x := range p.jobs {
			out = append(out, x.ID)
		}
	case pageNews:
		for _, x := range p.news.Feeds {
			out = append(out, x.URL)
		}
	case pageTools:
		for _, x := range p.tools {
			out = append(out, x.Name)
		}
	case pageChannels:
		for _, x := range p.chans.Channels {
			out = append(out, x.ID)
		}
	case pageConnectors:
		for _, r := range p.connRows() {
			out = append(out, fmt.Sprint(r.kind, r.id))
		}
	}
	return out
}
