// Package freeport finds loopback TCP ports for tests that must name a port
// (a config's port, an address to start a server on later, an address that
// must refuse connections). It is test support: only _test.go files import
// it.
//
// A port found by listening on port 0 and closing comes from the kernel's
// ephemeral range, which every other port-0 listener and every outgoing
// connection on the machine draws from too: another test can take it
// before it is used again. Ports here are drawn below that range instead,
// so only another explicit choice of the same port can take them.
package freeport

import (
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// lowest is the bottom of the range ports are drawn from.
const lowest = 10000

// Port returns a loopback TCP port that nothing listened on a moment ago,
// drawn below the ephemeral range when the system says where it starts
// (Linux), else a released port-0 one.
func Port() (int, error) {
	if low := ephemeralLow(); low > lowest {
		for range 100 {
			port := lowest + rand.IntN(low-lowest)
			if l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port))); err == nil {
				_ = l.Close()
				return port, nil
			}
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Addr is Port as "127.0.0.1:port".
func Addr() (string, error) {
	p, err := Port()
	if err != nil {
		return "", err
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(p)), nil
}

// ephemeralLow is the first port of Linux's ephemeral range (0 if unknown).
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0
	}
	low, _ := strconv.Atoi(f[0])
	return low
}
