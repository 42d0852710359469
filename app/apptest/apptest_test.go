package apptest

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

// A port taken between FreePort and the core's bind (here: on purpose, by
// this test) makes StartWithAsk start again on another port.
func TestStartWithAskRetriesATakenPort(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	takenPort := taken.Addr().(*net.TCPAddr).Port
	var tried []int
	a := StartWithAsk(t, func(port int) map[string]string {
		if len(tried) == 0 {
			port = takenPort // another test got there first
		}
		tried = append(tried, port)
		return map[string]string{config.ConnectorsFile: fmt.Sprintf(`{"mcpAsk":{"enabled":true,"port":%d}}`, port)}
	})
	require.Len(t, tried, 2)
	require.NotEqual(t, takenPort, tried[1])
	require.Contains(t, strings.Join(a.ConnectorLines(), "\n"), fmt.Sprintf("127.0.0.1:%d", tried[1]))
}
