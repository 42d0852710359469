// Package broker defines what a Unified Trading Account needs from a
// broker, and the typed error every broker adapter reports failures with.
package broker

import (
	"context"
	"errors"
	"fmt"

	"github.com/alice-trading/alice/trading"

	"github.com/shopspring/decimal"
)

// Broker is one connection to a venue. Implementations are safe for
// concurrent use. Failures (including a rejected order) are returned as
// errors, preferably *Error so callers can tell transient from permanent.
type Broker interface {
	Init(ctx context.Context) error
	Close() error

	SearchContracts(ctx context.Context, pattern string, class trading.AssetClass) ([]trading.Contract, error)
	ContractDetails(ctx context.Context, query trading.Contract) (*trading.ContractDetails, error)

	PlaceOrder(ctx context.Context, c trading.Contract, o trading.Order, tpsl *trading.TPSL) (trading.OrderResult, error)
	ModifyOrder(ctx context.Context, orderID string, changes trading.OrderChanges) (trading.OrderResult, error)
	CancelOrder(ctx context.Context, orderID string) (trading.OrderResult, error)
	// ClosePosition sells (or covers) qty of the position; zero means all.
	ClosePosition(ctx context.Context, c trading.Contract, qty decimal.Decimal) (trading.OrderResult, error)

	Account(ctx context.Context) (trading.AccountInfo, error)
	Positions(ctx context.Context) ([]trading.Position, error)
	// Orders returns the given orders, or every known order when ids is empty.
	Orders(ctx context.Context, ids []string) ([]trading.OpenOrder, error)
	Order(ctx context.Context, id string) (*trading.OpenOrder, error)
	Quote(ctx context.Context, c trading.Contract) (trading.Quote, error)
	MarketClock(ctx context.Context) (trading.MarketClock, error)
	Capabilities() trading.Capabilities

	// NativeKey is the broker's key for a contract (the part after "|" in
	// an aliceId); ResolveNativeKey turns it back into a contract.
	NativeKey(c trading.Contract) string
	ResolveNativeKey(ctx context.Context, key string) (trading.Contract, error)
}

// Code classifies a broker failure.
type Code string

const (
	CodeConfig       Code = "CONFIG"
	CodeAuth         Code = "AUTH"
	CodeNetwork      Code = "NETWORK"
	CodeExchange     Code = "EXCHANGE"
	CodeMarketClosed Code = "MARKET_CLOSED"
	CodeNotFound     Code = "NOT_FOUND"
	// CodeBadData: the venue answered with a value that does not parse
	// (a number that is not one); the call fails rather than read zero.
	CodeBadData Code = "BAD_DATA"
	CodeUnknown Code = "UNKNOWN"
)

// Transient reports whether retrying later may succeed.
func (c Code) Transient() bool { return c == CodeNetwork || c == CodeMarketClosed || c == CodeUnknown }

// Error is a broker failure with a code and an optional hint for the user.
type Error struct {
	Code Code
	Msg  string
	Hint string
	Err  error
}

func (e *Error) Error() string {
	s := string(e.Code) + ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Wire is the JSON shape tools return for a broker failure.
type Wire struct {
	Error     string `json:"error"`
	Code      Code   `json:"code"`
	Transient bool   `json:"transient"`
	Hint      string `json:"hint,omitempty"`
}

// ToWire converts any error to the wire shape (UNKNOWN when untyped).
func ToWire(err error) Wire {
	var be *Error
	if errors.As(err, &be) {
		return Wire{Error: be.Error(), Code: be.Code, Transient: be.Code.Transient(), Hint: be.Hint}
	}
	return Wire{Error: err.Error(), Code: CodeUnknown, Transient: true}
}

// CodeOf returns the error's code, or UNKNOWN.
func CodeOf(err error) Code {
	var be *Error
	if errors.As(err, &be) {
		return be.Code
	}
	return CodeUnknown
}
