// Package ibkr adapts Interactive Brokers' TWS / IB Gateway socket API
// (github.com/scmhub/ibapi) to broker.Broker.
//
// There are no API keys: the person logs in to TWS or IB Gateway, and the
// adapter connects to its API port. What OpenAlice learned the hard way is
// built in: account values and the portfolio come from one reqAccountUpdates
// subscription kept in memory (asking per call runs into IB's request
// limits), orders are tracked from the openOrder/orderStatus stream, a
// keepalive (reqCurrentTime) notices a Gateway that stopped answering, and a
// dead or IB-disconnected Gateway makes every call fail with NETWORK rather
// than serve stale figures as if healthy (OpenAlice issue #294). A lost
// socket is re-established with exponential backoff.
package ibkr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
)

// Config is the ibkr-tws preset's presetConfig, the same shape as
// OpenAlice's: {host, port, clientId, accountId}.
type Config struct {
	Host string
	Port int
	// ClientID must be unique among the API clients of one TWS.
	ClientID int64
	// AccountID picks one of the logged-in user's accounts; empty = the
	// first account TWS reports.
	AccountID string
	// Timeout bounds the handshake and each request (default 10 s).
	Timeout time.Duration
	// KeepAlive is how often an idle connection is probed (default 30 s).
	KeepAlive time.Duration
}

// Paper reports whether the port is one of IB's paper-trading defaults
// (7497 TWS, 4002 Gateway).
func (c Config) Paper() bool { return c.Port == 7497 || c.Port == 4002 }

// ParseConfig decodes presetConfig strictly. Numbers may be given as JSON
// numbers or numeric strings (OpenAlice coerces them). On error it returns
// the offending key.
func ParseConfig(raw json.RawMessage) (Config, string, error) {
	c := Config{Host: "127.0.0.1", Port: 7497, Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if len(bytes.TrimSpace(raw)) == 0 {
		return c, "", nil
	}
	if path, dup := core.DuplicateKey(raw); dup {
		return c, path, errors.New("duplicate key: given more than once (JSON would silently keep the last); keep one")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return c, "", fmt.Errorf("presetConfig must be a JSON object: %v", err)
	}
	for k, v := range m {
		switch k {
		case "host":
			var s string
			if err := json.Unmarshal(v, &s); err != nil || strings.TrimSpace(s) == "" || strings.ContainsAny(s, " /\t\n") {
				return c, k, fmt.Errorf("must be a host name or IP address, got %s", v)
			}
			c.Host = strings.TrimSpace(s)
		case "port":
			n, err := wholeNumber(v)
			if err != nil || n < 1 || n > 65535 {
				return c, k, fmt.Errorf("must be a TCP port 1-65535 (TWS 7497 paper / 7496 live, IB Gateway 4002 paper / 4001 live), got %s", v)
			}
			c.Port = int(n)
		case "clientId":
			n, err := wholeNumber(v)
			if err != nil || n < 0 || n > math.MaxInt32 {
				return c, k, fmt.Errorf("must be a whole number 0-%d, got %s", math.MaxInt32, v)
			}
			c.ClientID = n
		case "accountId":
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return c, k, fmt.Errorf("must be a string (an IB account code such as DU1234567), got %s", v)
			}
			c.AccountID = strings.TrimSpace(s)
		case "timeoutSec", "keepAliveSec":
			n, err := wholeNumber(v)
			if err != nil || n < 1 || n > 3600 {
				return c, k, fmt.Errorf("must be a whole number of seconds 1-3600, got %s", v)
			}
			if k == "timeoutSec" {
				c.Timeout = time.Duration(n) * time.Second
			} else {
				c.KeepAlive = time.Duration(n) * time.Second
			}
		default:
			return c, k, errors.New(config.Unknown("key", k, []string{"host", "port", "clientId", "accountId", "timeoutSec", "keepAliveSec"}))
		}
	}
	return c, "", nil
}

// wholeNumber accepts 7497 or "7497".
func wholeNumber(v json.RawMessage) (int64, error) {
	var s string
	if err := json.Unmarshal(v, &s); err == nil {
		return strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	}
	var f json.Number
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	if err := dec.Decode(&f); err != nil {
		return 0, err
	}
	return strconv.ParseInt(f.String(), 10, 64)
}
