package app

import (
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading/uta"
)

// Validate is the one configuration check: every file's own validation
// (Store.CheckAll) plus what needs the domain packages — each enabled
// trading account's broker preset, presetConfig (API keys looked up with
// getenv) and guard options (uta.ValidateStore). `alice check`, start-up
// (`alice`, `alice serve`) and the settings forms call it, so check can
// never pass a config that serve refuses. All problems are joined, one per
// line, each naming its file and key. getenv nil means os.Getenv.
func Validate(store *config.Store, getenv func(string) string) error {
	if err := store.CheckAll(); err != nil {
		return err // accounts.json itself may be malformed: stop here
	}
	return uta.ValidateStore(store, getenv)
}
