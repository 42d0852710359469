//go:build ccxt

package ccxt

import (
	"errors"
	"testing"

	ccxtlib "github.com/ccxt/ccxt/go/v4"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading/broker"
)

func TestWrapMapsCCXTErrorClasses(t *testing.T) {
	for _, c := range []struct {
		err  error
		code broker.Code
	}{
		{ccxtlib.AuthenticationError("bad key"), broker.CodeAuth},
		{ccxtlib.PermissionDenied("no trade permission"), broker.CodeAuth},
		{ccxtlib.RateLimitExceeded("slow down"), broker.CodeNetwork},
		{ccxtlib.NetworkError("refused"), broker.CodeNetwork},
		{ccxtlib.ExchangeNotAvailable("503"), broker.CodeNetwork},
		{ccxtlib.RequestTimeout("timeout"), broker.CodeNetwork},
		{ccxtlib.OrderNotFound("gone"), broker.CodeNotFound},
		{ccxtlib.BadSymbol("FOO/BAR"), broker.CodeNotFound},
		{ccxtlib.InsufficientFunds("poor"), broker.CodeExchange},
		{ccxtlib.InvalidOrder("tick"), broker.CodeExchange},
		{ccxtlib.DuplicateOrderId("again"), broker.CodeExchange},
		{ccxtlib.MarketClosed("halted"), broker.CodeMarketClosed},
		{errors.New("plain"), broker.CodeUnknown},
	} {
		err := wrap(c.err, "okx balance")
		require.Equal(t, c.code, broker.CodeOf(err), "%v", err)
		require.Contains(t, err.Error(), "okx balance")
		require.NotContains(t, err.Error(), "Stack:", "CCXT's stack trace is not shown to users")
	}
	require.NoError(t, wrap(nil, "x"))
	typed := broker.Errorf(broker.CodeConfig, "kept")
	require.Same(t, typed, wrap(typed, "x").(*broker.Error), "broker errors pass through")
	require.NotEmpty(t, broker.ToWire(wrap(ccxtlib.AuthenticationError("k"), "x")).Hint)
}
