package freeport

import (
	"net"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPortIsFreeAndBelowTheEphemeralRange(t *testing.T) {
	t.Parallel()
	for range 20 {
		p, err := Port()
		require.NoError(t, err)
		if low := ephemeralLow(); low > lowest {
			require.GreaterOrEqual(t, p, lowest)
			require.Less(t, p, low, "never a port the kernel hands out for port 0")
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		require.NoError(t, err, "the port can be bound")
		require.NoError(t, l.Close())
	}
	a, err := Addr()
	require.NoError(t, err)
	_, err = net.Dial("tcp", a)
	require.ErrorContains(t, err, "connection refused", "nothing listens there")
}
