package app

import (
	"os"
	"slices"
	"sync"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading/marketdata"
	"github.com/alice-trading/alice/trading/uta"
)

// credentialEnv remembers the names of the environment variables alice's
// own credentials are read from: brokers' API keys (every lookup a broker
// preset or the market data backend makes, defaults included), the
// Telegram bot token. Workspace sessions get an environment without them
// (workspace.SandboxOptions.HideEnv): with a broker's key an agent could
// trade at the broker directly, around every guard and approval.
type credentialEnv struct {
	mu    sync.Mutex
	names map[string]bool
}

// getenv is os.Getenv that remembers the name.
func (c *credentialEnv) getenv(name string) string {
	c.add(name)
	return os.Getenv(name)
}

func (c *credentialEnv) add(names ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.names == nil {
		c.names = map[string]bool{}
	}
	for _, n := range names {
		if n != "" {
			c.names[n] = true
		}
	}
}

// presetDefaultEnv are the names the broker presets (every preset this
// build has: the CCXT ones with -tags ccxt) and the market data backends
// read a key from when an account names none: hidden whether or not an
// account uses them (a key exported for another tool is still the
// person's key).
func presetDefaultEnv() []string {
	out := []string{marketdata.DefaultAlpacaKeyEnv, marketdata.DefaultAlpacaSecretEnv, marketdata.DefaultOpenBBTokenEnv}
	for _, p := range uta.Presets() {
		for _, f := range p.Fields {
			if f.Kind == uta.FieldEnvRef && f.Default != "" && !slices.Contains(out, f.Default) {
				out = append(out, f.Default)
			}
		}
	}
	return out
}

// list is every name remembered so far and the presets' defaults, sorted.
func (c *credentialEnv) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := presetDefaultEnv()
	for n := range c.names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// CredentialEnvNames is the list a running core builds as it opens its
// accounts, for surfaces without a core (`alice workspace` offline): the
// accounts are validated with a recording getenv (errors ignored: a
// broken account's names are hidden too), then the market data backend's
// and the Telegram bot token's names are added.
func CredentialEnvNames(store *config.Store) []string {
	var c credentialEnv
	_ = uta.ValidateStore(store, c.getenv)
	if md, err := store.MarketData(); err == nil {
		c.add(md.APIKeyEnv, md.APISecretEnv)
	}
	if cc, err := store.Connectors(); err == nil {
		c.add(cc.Telegram.BotTokenEnv)
	}
	return c.list()
}
