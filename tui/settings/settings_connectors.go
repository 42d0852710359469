package settings

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// connRowKind is one row of the Connectors page.
type connRowKind int

const (
	connAsk connRowKind = iota
	connTelegram
	connMainToken
	connAskToken
	connWebhook
)

type connRow struct {
	kind connRowKind
	id   string // webhook token id
}

func (p *Pane) connRows() []connRow {
	rows := []connRow{{kind: connAsk}, {kind: connTelegram}, {kind: connMainToken}, {kind: connAskToken}}
	for _, t := range p.conn.WebhookTokens {
		rows = append(rows, connRow{kind: connWebhook, id: t.ID})
	}
	return rows
}

func (p *Pane) connectorsKey(k tea.KeyPressMsg) tea.Cmd {
	ks, sc := p.keys, p.sc
	rows := p.connRows()
	if p.sel >= len(rows) {
		return nil
	}
	r := rows[p.sel]
	switch {
	case key.Matches(k, ks.Edit) && (r.kind == connAsk || r.kind == connTelegram):
		p.Form = p.connectorsForm()
	case key.Matches(k, ks.Test) && r.kind == connTelegram:
		p.progress("sending a test message…")
		return p.do(false, func(ctx context.Context) (string, error) {
			return "test message sent to every allowed chat", sc.TelegramTest(ctx)
		})
	case key.Matches(k, ks.NewToken) && (r.kind == connMainToken || r.kind == connAskToken):
		which := map[connRowKind]string{connMainToken: "main", connAskToken: "ask"}[r.kind]
		return func() tea.Msg {
			tok, err := sc.NewMCPToken(which)
			if err != nil {
				return settingsDoneMsg{err: err}
			}
			return settingsNoticeMsg(fmt.Sprintf("New %s MCP bearer token (shown once; the listener requires it within a second):\n%s\nClients send: Authorization: Bearer <token>", which, tok))
		}
	case key.Matches(k, ks.Add):
		return func() tea.Msg {
			t, err := sc.CreateWebhookToken()
			if err != nil {
				return settingsDoneMsg{err: err}
			}
			return settingsNoticeMsg(fmt.Sprintf("Webhook token %s (shown once):\n%s\n\nReady to use:\n%s", t.ID, t.Token, t.Curl))
		}
	case key.Matches(k, ks.Revoke) && (r.kind == connMainToken || r.kind == connAskToken):
		which := map[connRowKind]string{connMainToken: "main", connAskToken: "ask"}[r.kind]
		p.m.OpenDialog("Revoke MCP token?", fmt.Sprintf("Remove the %s MCP listener's bearer token?\nWithin a second it accepts loopback clients without a token.", which),
			p.do(false, func(context.Context) (string, error) { return which + " MCP token revoked", sc.RevokeMCPToken(which) }))
	case key.Matches(k, ks.Revoke) && r.kind == connWebhook:
		id := r.id
		p.m.OpenDialog("Revoke webhook token?", "Revoke "+id+"? Callers using it get 401 at once.",
			p.do(false, func(context.Context) (string, error) { return "revoked " + id, sc.RevokeWebhookToken(id) }))
	}
	return nil
}

func (p *Pane) connectorsForm() *settingsForm {
	sc, c := p.sc, p.conn
	return newSettingsForm(p.keys, "Connectors", "Ask on/off and port, and Telegram, apply at alice's next start; tokens apply at once.", []formField{
		boolField("askEnabled", "Ask connector", c.AskEnabled),
		textField("askPort", "Ask port", strconv.Itoa(c.AskPort), "0..65535 (0 = any free port)"),
		boolField("tgEnabled", "Telegram", c.TelegramEnabled),
		textField("tgEnv", "Bot token env var", c.TelegramTokenEnv, "the NAME of the variable holding the bot token, e.g. TELEGRAM_BOT_TOKEN"),
		textField("tgChats", "Allowed chat ids", c.TelegramChatIDs, "comma-separated; messages from other chats are ignored"),
	}, func(v map[string]string) tea.Cmd {
		port, err := strconv.Atoi(strings.TrimSpace(v["askPort"]))
		if err != nil {
			return func() tea.Msg {
				return settingsDoneMsg{form: true, err: fmt.Errorf("Ask port must be a number, got %q", v["askPort"])}
			}
		}
		out := c
		out.AskEnabled, out.AskPort = v["askEnabled"] == "yes", port
		out.TelegramEnabled, out.TelegramTokenEnv, out.TelegramChatIDs = v["tgEnabled"] == "yes", v["tgEnv"], v["tgChats"]
		return p.do(true, func(context.Context) (string, error) {
			return "connectors saved (restart alice to apply)", sc.SaveConnectors(c.Version, out)
		})
	})
}

func (p *Pane) connectorsView() string {
	st, c := p.m.Styles(), p.conn
	var b strings.Builder
	b.WriteString(st.Title.Render("Connectors") + st.Muted.Render("  "+c.ConnectorsFile) + "\n\n")
	ask := "off"
	if c.AskEnabled {
		ask = fmt.Sprintf("on, port %d", c.AskPort)
		if c.AskPort == 0 {
			ask = "on, port 0 (any free port)"
		}
	}
	if c.AskURL != "" {
		ask += "  (running at " + c.AskURL + ")"
	}
	tg := "off"
	if c.TelegramEnabled {
		tg = "on, token from $" + kit.OrDash(c.TelegramTokenEnv)
		if c.TelegramHasToken {
			tg = "on, token stored in file ⚠"
		}
		tg += ", chats " + kit.OrDash(c.TelegramChatIDs)
	}
	if c.TelegramRunning {
		tg += "  (running)"
	}
	tokenState := func(set bool) string {
		if set {
			return "bearer token set"
		}
		return "no token (loopback only)"
	}
	rows := []string{
		fmt.Sprintf("%-18s %s", "Ask connector", ask),
		fmt.Sprintf("%-18s %s", "Telegram", tg),
		fmt.Sprintf("%-18s %s  %s", "Main MCP token", tokenState(c.MainTokenSet), st.Muted.Render(c.MainURL)),
		fmt.Sprintf("%-18s %s", "Ask MCP token", tokenState(c.AskTokenSet)),
	}
	for _, t := range c.WebhookTokens {
		rows = append(rows, fmt.Sprintf("%-18s %s  created %s", "Webhook token", t.ID, t.CreatedAt.Format("2006-01-02 15:04")))
	}
	for i, r := range rows {
		b.WriteString(p.row(i, r) + "\n")
	}
	if len(c.WebhookTokens) == 0 {
		b.WriteString(st.Muted.Render("  no webhook tokens: POST /api/events/ingest answers 503") + "\n")
	}
	return b.String()
}
