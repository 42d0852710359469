package ibkr

import (
	"fmt"

	"github.com/alice-trading/alice/trading/broker"
)

// IB message codes this adapter treats specially (interactivebrokers.github.io
// /tws-api/message_codes.html).
const (
	codeRateLimit        = 100   // max rate of messages per second exceeded
	codeDuplicateOrderID = 103   // duplicate order id
	codeOrderNotFound    = 135   // can't find order with id
	codeNotCancellable   = 161   // cancel attempted when order is not cancellable
	codeNoSecurity       = 200   // no security definition has been found
	codeOrderRejected    = 201   // order rejected - reason: …
	codeOrderCancelled   = 202   // order cancelled (the normal answer to a cancel)
	codeNotConnected     = 504   // not connected
	codeCannotConnect    = 502   // couldn't connect to TWS
	codeClientIDInUse    = 326   // client id already in use
	codeIBLost           = 1100  // connectivity between IB and TWS lost
	codeRestoredLost     = 1101  // restored, data lost: resubscribe
	codeRestoredKept     = 1102  // restored, data maintained
	codeServerBroken     = 2110  // connectivity between TWS and server broken
	codeCancelNotFound   = 10147 // order to cancel not found
)

// informational reports whether an IB code is a notice, not a failure
// (2100-2199 are warnings such as "market data farm connection is OK").
// 10167 and 10090 say delayed (or partial) market data is being shown.
func informational(code int64) bool {
	return (code >= 2100 && code < 2200 && code != codeServerBroken) || code == 1102 || code == 0 ||
		code == 10167 || code == 10090
}

// codeFor maps an IB message code to a broker code.
func codeFor(code int64) broker.Code {
	switch code {
	case codeNotConnected, codeCannotConnect, codeIBLost, codeServerBroken, codeRateLimit,
		503, 507, 509, 1300, 10225:
		return broker.CodeNetwork // socket or IB link down, throttled: retry later
	case codeClientIDInUse:
		return broker.CodeConfig
	case codeNoSecurity, codeOrderNotFound, codeCancelNotFound:
		return broker.CodeNotFound
	}
	return broker.CodeExchange // order rejected, not cancellable, bad price, not allowed…
}

// ibError is an error message TWS sent about one request.
type ibError struct {
	Code int64
	Msg  string
}

func (e ibError) typed(what string) *broker.Error {
	be := &broker.Error{Code: codeFor(e.Code), Msg: fmt.Sprintf("%s: IB error %d: %s", what, e.Code, e.Msg)}
	switch e.Code {
	case codeClientIDInUse:
		be.Hint = "another API client uses this clientId on the same TWS; set a different presetConfig.clientId"
	case 354, 10089, 10167, 10168:
		be.Hint = "the IB account has no market data subscription for this instrument"
	case codeRateLimit:
		be.Hint = "TWS throttled the API (50 messages/s); retry shortly"
	}
	return be
}

// notConnected is what every call returns while the socket is down.
func notConnected(why string) *broker.Error {
	return &broker.Error{Code: broker.CodeNetwork, Msg: "not connected to TWS / IB Gateway: " + why,
		Hint: "start TWS or IB Gateway, log in, enable the API socket (TWS: Global Configuration → API → Settings) and check host/port"}
}

func codeOf(err error) broker.Code { return broker.CodeOf(err) }
