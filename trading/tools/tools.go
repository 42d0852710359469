// Package tools registers the trading tools (inventory §1, group
// "trading") in the core tool registry. Every tool goes through the
// uta.Manager; decimal parameters are strings ("" means unset) and bad
// arguments come back as errors, never panics.
package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/uta"
)

// Group is the tool group name.
const Group = "trading"

const sourceProp = `"source": {"type": "string", "description": "Account id (e.g. \"sim-paper\") or provider (e.g. \"simulator\", \"alpaca\"); omit for all accounts"}`

// Register adds every trading tool to reg.
func Register(reg core.ToolRegistry, mgr *uta.Manager) {
	h := &handlers{m: mgr}
	reg.Register(h.readTools()...)
	reg.Register(h.stageTools()...)
	reg.Register(h.gitTools()...)
}

type handlers struct{ m *uta.Manager }

func tool(name, desc, schema string, fn core.ToolHandler) core.Tool {
	return core.Tool{Name: name, Group: Group, Description: desc, InputSchema: core.Schema(schema), Handler: fn}
}

// one resolves source to exactly one account.
func (h *handlers) one(source string) (*uta.UTA, error) {
	if strings.TrimSpace(source) == "" {
		return nil, fmt.Errorf("source is required: an account id from listUTAs")
	}
	us, err := h.m.Resolve(source)
	if err != nil {
		return nil, err
	}
	if len(us) > 1 {
		ids := make([]string, len(us))
		for i, u := range us {
			ids[i] = u.ID()
		}
		return nil, fmt.Errorf("source %q matches several accounts (%s); pass an account id", source, strings.Join(ids, ", "))
	}
	return us[0], nil
}

// perAccount runs fn on every matching account; a broker failure becomes
// that account's {error, code, transient, hint} entry instead of failing
// the whole call.
func (h *handlers) perAccount(ctx context.Context, source string, fn func(context.Context, *uta.UTA) (any, error)) (any, error) {
	us, err := h.m.Resolve(source)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, u := range us {
		v, err := fn(ctx, u)
		if err != nil {
			out[u.ID()] = broker.ToWire(err)
			continue
		}
		out[u.ID()] = v
	}
	return out, nil
}

func decode(args json.RawMessage, v any) error { return core.DecodeArgs(args, v) }

// accountView is getAccount's answer: the broker's figures and whether
// an agent may stage on the account now (the facts listUTAs gives).
type accountView struct {
	trading.AccountInfo
	ReadOnly       bool   `json:"readOnly"`
	AgentsMayStage bool   `json:"agentsMayStage"`
	StagingNote    string `json:"stagingNote,omitempty"`
}

type sourceArgs struct {
	Source string `json:"source"`
}

func (h *handlers) readTools() []core.Tool {
	return []core.Tool{
		tool("listUTAs", "List trading accounts (UTAs): id, provider, label, health, capabilities, and whether you may trade there now: readOnly (never stages), aiTrading (agent.json switch; off: agents stage nothing), halted (kill switch), agentsMayStage with stagingNote saying why not.",
			`{"type":"object","properties":{}}`,
			func(ctx context.Context, args json.RawMessage) (any, error) {
				var a struct{}
				if err := decode(args, &a); err != nil {
					return nil, err
				}
				return h.m.Accounts(), nil
			}),
		tool("searchContracts", "Search tradable contracts at the brokers by symbol or name (e.g. \"AAPL\", \"bitcoin\"). Returns aliceIds to trade with.",
			`{"type":"object","properties":{"pattern":{"type":"string"},"assetClass":{"type":"string","enum":["equity","crypto","currency","commodity","unknown"]},`+sourceProp+`},"required":["pattern"]}`,
			h.searchContracts),
		tool("getContractDetails", "Full contract specification for a symbol or aliceId at one account.",
			`{"type":"object","properties":{"source":{"type":"string","description":"Account id"},"symbol":{"type":"string"},"aliceId":{"type":"string"},"secType":{"type":"string"},"currency":{"type":"string"}},"required":["source"]}`,
			h.contractDetails),
		tool("getAccount", "Account summary: netLiquidation, totalCashValue, buyingPower, unrealizedPnL, realizedPnL; and, as in listUTAs, readOnly and agentsMayStage (with stagingNote saying why not).",
			`{"type":"object","properties":{`+sourceProp+`}}`,
			func(ctx context.Context, args json.RawMessage) (any, error) {
				var a sourceArgs
				if err := decode(args, &a); err != nil {
					return nil, err
				}
				staging := map[string]uta.Summary{}
				for _, s := range h.m.Accounts() {
					staging[s.ID] = s
				}
				return h.perAccount(ctx, a.Source, func(ctx context.Context, u *uta.UTA) (any, error) {
					info, err := u.Account(ctx)
					if err != nil {
						return nil, err
					}
					s := staging[u.ID()]
					return accountView{AccountInfo: info, ReadOnly: s.ReadOnly, AgentsMayStage: s.AgentsMayStage, StagingNote: s.StagingNote}, nil
				})
			}),
		tool("getPortfolio", "Positions with market value, P&L and percentage of equity/portfolio.",
			`{"type":"object","properties":{`+sourceProp+`,"symbol":{"type":"string"}}}`,
			h.portfolio),
		tool("getOrders", "Orders by id; by default the pending orders recorded in the trading history.",
			`{"type":"object","properties":{`+sourceProp+`,"orderIds":{"type":"array","items":{"type":"string"}},"groupBy":{"type":"string","enum":["contract"]}}}`,
			h.orders),
		tool("getQuote", "Latest quote (last, bid, ask, volume) for an aliceId (\"accountId|symbol\").",
			`{"type":"object","properties":{"aliceId":{"type":"string"},`+sourceProp+`},"required":["aliceId"]}`,
			h.quote),
		tool("getMarketClock", "Whether the market is open, and the next open/close.",
			`{"type":"object","properties":{`+sourceProp+`}}`,
			func(ctx context.Context, args json.RawMessage) (any, error) {
				var a sourceArgs
				if err := decode(args, &a); err != nil {
					return nil, err
				}
				return h.perAccount(ctx, a.Source, func(ctx context.Context, u *uta.UTA) (any, error) { return u.Broker().MarketClock(ctx) })
			}),
	}
}

func (h *handlers) searchContracts(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Pattern    string `json:"pattern"`
		AssetClass string `json:"assetClass"`
		Source     string `json:"source"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Pattern) == "" {
		return nil, fmt.Errorf("pattern is required")
	}
	class, err := trading.ParseAssetClass(a.AssetClass)
	if err != nil {
		return nil, err
	}
	pattern := a.Pattern
	if class == trading.Crypto || class == trading.Currency {
		pattern = normalizePair(pattern)
	}
	return h.perAccount(ctx, a.Source, func(ctx context.Context, u *uta.UTA) (any, error) {
		cs, err := u.Broker().SearchContracts(ctx, pattern, class)
		if cs == nil {
			cs = []trading.Contract{}
		}
		return cs, err
	})
}

// normalizePair turns "BTCUSD" / "BTC/USD" / "BTC-USD" into "BTC" for
// brokers that list crypto by base asset.
func normalizePair(p string) string {
	up := strings.ToUpper(strings.TrimSpace(p))
	for _, q := range []string{"/USDT", "/USD", "-USDT", "-USD", "USDT", "USD"} {
		if base, ok := strings.CutSuffix(up, q); ok && base != "" {
			return base
		}
	}
	return up
}

func (h *handlers) contractDetails(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source   string `json:"source"`
		Symbol   string `json:"symbol"`
		AliceID  string `json:"aliceId"`
		SecType  string `json:"secType"`
		Currency string `json:"currency"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	u, err := h.one(a.Source)
	if err != nil {
		return nil, err
	}
	if a.Symbol == "" && a.AliceID == "" {
		return nil, fmt.Errorf("symbol or aliceId is required")
	}
	q := trading.Contract{Symbol: a.Symbol, AliceID: a.AliceID, SecType: a.SecType, Currency: a.Currency}
	if a.AliceID != "" {
		c, err := u.ContractFromAliceID(ctx, a.AliceID)
		if err != nil {
			return nil, err
		}
		q.Symbol = c.Symbol
	}
	return u.Broker().ContractDetails(ctx, q)
}

type portfolioRow struct {
	trading.Position
	AliceID               string `json:"aliceId"`
	PercentageOfEquity    string `json:"percentageOfEquity"`
	PercentageOfPortfolio string `json:"percentageOfPortfolio"`
}

func (h *handlers) portfolio(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source string `json:"source"`
		Symbol string `json:"symbol"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	return h.perAccount(ctx, a.Source, func(ctx context.Context, u *uta.UTA) (any, error) {
		acct, err := u.Account(ctx)
		if err != nil {
			return nil, err
		}
		pos, err := u.Positions(ctx)
		if err != nil {
			return nil, err
		}
		total := acct.NetLiquidation.Sub(acct.TotalCashValue)
		rows := []portfolioRow{}
		for _, p := range pos {
			if a.Symbol != "" && !strings.EqualFold(p.Contract.Symbol, a.Symbol) {
				continue
			}
			r := portfolioRow{Position: p, AliceID: trading.AliceID(u.ID(), u.Broker().NativeKey(p.Contract))}
			if acct.NetLiquidation.IsPositive() {
				r.PercentageOfEquity = p.MarketValue.Div(acct.NetLiquidation).Mul(hundred).StringFixed(2)
			}
			if total.IsPositive() {
				r.PercentageOfPortfolio = p.MarketValue.Div(total).Mul(hundred).StringFixed(2)
			}
			rows = append(rows, r)
		}
		return map[string]any{"positions": rows, "netLiquidation": acct.NetLiquidation, "totalCashValue": acct.TotalCashValue}, nil
	})
}

func (h *handlers) orders(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source   string   `json:"source"`
		OrderIDs []string `json:"orderIds"`
		GroupBy  string   `json:"groupBy"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	if a.GroupBy != "" && a.GroupBy != "contract" {
		return nil, fmt.Errorf("groupBy must be \"contract\"")
	}
	return h.perAccount(ctx, a.Source, func(ctx context.Context, u *uta.UTA) (any, error) {
		os, err := u.Orders(ctx, a.OrderIDs)
		if os == nil {
			os = []trading.OpenOrder{}
		}
		if err != nil || a.GroupBy == "" {
			return os, err
		}
		groups := map[string][]trading.OpenOrder{}
		for _, o := range os {
			groups[o.Contract.Symbol] = append(groups[o.Contract.Symbol], o)
		}
		return groups, nil
	})
}

func (h *handlers) quote(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		AliceID string `json:"aliceId"`
		Source  string `json:"source"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	acct, _, err := trading.SplitAliceID(a.AliceID)
	if err != nil {
		return nil, err
	}
	if a.Source != "" && a.Source != acct {
		if us, err := h.m.Resolve(a.Source); err != nil || !containsID(us, acct) {
			return nil, fmt.Errorf("aliceId %q belongs to account %q, which source %q does not include", a.AliceID, acct, a.Source)
		}
	}
	u, err := h.m.Get(acct)
	if err != nil {
		return nil, err
	}
	c, err := u.ContractFromAliceID(ctx, a.AliceID)
	if err != nil {
		return nil, err
	}
	return u.Broker().Quote(ctx, c)
}

func containsID(us []*uta.UTA, id string) bool {
	for _, u := range us {
		if u.ID() == id {
			return true
		}
	}
	return false
}
