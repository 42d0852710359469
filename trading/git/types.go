// Package git is Trading-as-Git: the agent stages operations, commits them
// with a message (nothing executes), and a push — approved by a human
// unless the account auto-approves — runs each operation through the guard
// pipeline and the broker, recording results and the account state after.
//
// The invariant everything here serves: an operation reaches a broker only
// inside the commit whose hash a person approved (or autoApprove pushed),
// and exactly once.
//
//   - A commit's hash covers its message, operations, time and parent;
//     Push and Reject take the hash the decider was shown and refuse
//     (*StaleError) when the prepared commit is no longer that one.
//   - While a push awaits a person's decision (RequestApproval) the staging
//     area and the commit are frozen: Stage and Commit refuse with an
//     *AwaitingError naming the waiting commit and how to reject it.
//   - Staging after an unpushed (not awaiting) commit voids it, and the
//     stage result lists every operation the next commit will hold.
//   - History is persisted per account and a push in progress is
//     checkpointed after every operation, so a restart neither loses staged
//     work nor re-submits an operation that already reached the broker; an
//     operation that was executing at the crash is reconciled with the
//     broker by its client order id when the broker can tell (Deps.Reconcile).
package git

import (
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading"

	"github.com/shopspring/decimal"
)

// OpAction is the kind of a staged operation.
type OpAction string

const (
	PlaceOrder    OpAction = "placeOrder"
	ModifyOrder   OpAction = "modifyOrder"
	ClosePosition OpAction = "closePosition"
	CancelOrder   OpAction = "cancelOrder"
	SyncOrders    OpAction = "syncOrders"
	// ObserveExternalOrder records an order found at the broker that was
	// not placed through alice (the venue's own app, another tool). It is
	// never staged: RecordObserved writes it straight into the history.
	ObserveExternalOrder OpAction = "observeExternalOrder"
)

// Provenance is who staged an operation: the agent session, the channel
// it came through (tui, telegram, mcp, cron, …) and the agent or client
// that asked. Empty fields are unknown.
type Provenance struct {
	Session string `json:"session,omitempty"`
	Channel string `json:"channel,omitempty"`
	Agent   string `json:"agent,omitempty"`
	// Person: a person staged it directly (the Market pane, Telegram).
	Person bool `json:"person,omitempty"`
}

// Key is the session the provenance names, else its channel, else "unknown".
func (p *Provenance) Key() string {
	switch {
	case p == nil:
		return "unknown"
	case p.Session != "":
		return p.Session
	case p.Channel != "":
		return p.Channel
	}
	return "unknown"
}

// Operation is one staged item (inventory §2 "Operation").
type Operation struct {
	Action   OpAction              `json:"action"`
	Contract *trading.Contract     `json:"contract,omitempty"`
	Order    *trading.Order        `json:"order,omitempty"`
	TPSL     *trading.TPSL         `json:"tpsl,omitempty"`
	OrderID  string                `json:"orderId,omitempty"`
	Changes  *trading.OrderChanges `json:"changes,omitempty"`
	// Quantity is closePosition's amount; zero closes everything.
	Quantity decimal.Decimal `json:"quantity,omitzero"`
	// Symbol is recorded for order-id operations so logs and guards can
	// filter by symbol; "unknown" when the stager could not tell.
	SymbolHint string `json:"symbol,omitempty"`
	// StagedBy records the session/channel/agent that staged it.
	StagedBy *Provenance `json:"stagedBy,omitempty"`
}

// Symbol is the instrument the operation concerns, or "unknown".
func (op Operation) Symbol() string {
	if op.Contract != nil && op.Contract.Symbol != "" {
		return op.Contract.Symbol
	}
	if op.SymbolHint != "" {
		return op.SymbolHint
	}
	return "unknown"
}

// Validate checks an operation is complete before it is staged.
func (op Operation) Validate() error {
	switch op.Action {
	case PlaceOrder:
		if op.Contract == nil || op.Contract.Symbol == "" || op.Order == nil {
			return fmt.Errorf("placeOrder needs a contract and an order")
		}
		return op.Order.Validate()
	case ModifyOrder:
		if op.OrderID == "" || op.Changes == nil {
			return fmt.Errorf("modifyOrder needs orderId and changes")
		}
	case ClosePosition:
		if op.Contract == nil || op.Contract.Symbol == "" {
			return fmt.Errorf("closePosition needs a contract")
		}
		if op.Quantity.IsNegative() {
			return fmt.Errorf("closePosition quantity must be positive")
		}
	case CancelOrder:
		if op.OrderID == "" {
			return fmt.Errorf("cancelOrder needs orderId")
		}
	case ObserveExternalOrder, SyncOrders:
		return fmt.Errorf("%s is recorded from the broker, never staged", op.Action)
	default:
		return fmt.Errorf("unknown operation %q", op.Action)
	}
	return nil
}

// ResultStatus is an operation's outcome.
type ResultStatus string

const (
	StatusSubmitted    ResultStatus = "submitted"
	StatusFilled       ResultStatus = "filled"
	StatusRejected     ResultStatus = "rejected"
	StatusCancelled    ResultStatus = "cancelled"
	StatusUserRejected ResultStatus = "user-rejected"
)

// FromOrderStatus maps a broker status to a result status.
func FromOrderStatus(s trading.OrderStatus) ResultStatus {
	switch s {
	case trading.StatusFilled:
		return StatusFilled
	case trading.StatusCancelled:
		return StatusCancelled
	case trading.StatusRejected:
		return StatusRejected
	}
	return StatusSubmitted
}

// Result is what executing one operation produced.
type Result struct {
	Action      OpAction        `json:"action"`
	Success     bool            `json:"success"`
	OrderID     string          `json:"orderId,omitempty"`
	Status      ResultStatus    `json:"status"`
	FilledQty   decimal.Decimal `json:"filledQty,omitzero"`
	FilledPrice decimal.Decimal `json:"filledPrice,omitzero"`
	Error       string          `json:"error,omitempty"`
	Symbol      string          `json:"symbol,omitempty"`
}

// State is the account after a push (inventory "GitState").
type State struct {
	NetLiquidation decimal.Decimal     `json:"netLiquidation"`
	TotalCashValue decimal.Decimal     `json:"totalCashValue"`
	UnrealizedPnL  decimal.Decimal     `json:"unrealizedPnL"`
	RealizedPnL    decimal.Decimal     `json:"realizedPnL"`
	Positions      []trading.Position  `json:"positions"`
	PendingOrders  []trading.OpenOrder `json:"pendingOrders"`
}

// Commit is one entry of the history (inventory "GitCommit").
type Commit struct {
	Hash       string      `json:"hash"`
	ParentHash *string     `json:"parentHash"`
	Message    string      `json:"message"`
	Operations []Operation `json:"operations"`
	Results    []Result    `json:"results"`
	StateAfter *State      `json:"stateAfter,omitempty"`
	Timestamp  time.Time   `json:"timestamp"`
}

// Pending is a prepared (committed, not yet pushed) commit.
type Pending struct {
	Hash       string      `json:"hash"`
	Message    string      `json:"message"`
	Timestamp  time.Time   `json:"timestamp"`
	Operations []Operation `json:"operations"`
	// AwaitingApproval is set when a push was requested and a person has
	// not decided yet; the staging area is frozen until they do.
	AwaitingApproval bool `json:"awaitingApproval,omitempty"`
}

// Status is "git status".
type Status struct {
	Staged         []Operation `json:"staged"`
	PendingMessage string      `json:"pendingMessage,omitempty"`
	PendingHash    string      `json:"pendingHash,omitempty"`
	// AwaitingApproval: the pending commit waits for a person; staging and
	// committing are refused until it is pushed or rejected.
	AwaitingApproval bool   `json:"awaitingApproval,omitempty"`
	Head             string `json:"head,omitempty"`
	CommitCount      int    `json:"commitCount"`
}

// PushResult summarises a push.
type PushResult struct {
	Hash           string   `json:"hash"`
	Message        string   `json:"message"`
	OperationCount int      `json:"operationCount"`
	Submitted      []Result `json:"submitted"`
	Rejected       []Result `json:"rejected"`
}

// LogEntry is one "git log --stat" line.
type LogEntry struct {
	Hash       string     `json:"hash"`
	ParentHash *string    `json:"parentHash"`
	Message    string     `json:"message"`
	Timestamp  time.Time  `json:"timestamp"`
	Operations []LogOpRow `json:"operations"`
}

// LogOpRow summarises one operation and its outcome.
type LogOpRow struct {
	Symbol string       `json:"symbol"`
	Action OpAction     `json:"action"`
	Change string       `json:"change"`
	Status ResultStatus `json:"status"`
}

// change renders an operation and its result the way the log shows it.
func change(op Operation, r Result) string {
	var b strings.Builder
	switch op.Action {
	case PlaceOrder:
		o := op.Order
		if o.TotalQuantity.IsPositive() {
			fmt.Fprintf(&b, "%s %s", o.Action, o.TotalQuantity)
		} else {
			fmt.Fprintf(&b, "%s $%s", o.Action, o.CashQty)
		}
		if o.OrderType != trading.Market {
			fmt.Fprintf(&b, " %s", o.OrderType)
		}
		switch {
		case r.FilledPrice.IsPositive():
			fmt.Fprintf(&b, " @%s", r.FilledPrice)
		case o.LmtPrice.IsPositive():
			fmt.Fprintf(&b, " @%s", o.LmtPrice)
		case o.AuxPrice.IsPositive():
			fmt.Fprintf(&b, " stop %s", o.AuxPrice)
		}
		if r.Status == StatusSubmitted {
			b.WriteString(" (submitted)")
		}
	case ClosePosition:
		b.WriteString("closed")
		if op.Quantity.IsPositive() {
			fmt.Fprintf(&b, " (partial: %s)", op.Quantity)
		}
		if r.FilledPrice.IsPositive() {
			fmt.Fprintf(&b, " @%s", r.FilledPrice)
		}
	case ModifyOrder:
		fmt.Fprintf(&b, "modified %s", op.OrderID)
	case CancelOrder:
		fmt.Fprintf(&b, "cancelled order %s", op.OrderID)
	case ObserveExternalOrder:
		fmt.Fprintf(&b, "observed external order %s", r.OrderID)
		if o := op.Order; o != nil {
			fmt.Fprintf(&b, ": %s %s %s", o.Action, o.TotalQuantity, o.OrderType)
			if o.LmtPrice.IsPositive() {
				fmt.Fprintf(&b, " @%s", o.LmtPrice)
			}
		}
	case SyncOrders:
		fmt.Fprintf(&b, "synced %s → %s", r.OrderID, r.Status)
		if r.FilledPrice.IsPositive() {
			fmt.Fprintf(&b, " @%s (%s filled)", r.FilledPrice, r.FilledQty)
		}
	}
	if !r.Success && r.Error != "" {
		fmt.Fprintf(&b, " — %s", r.Error)
	}
	return b.String()
}
