package app

import (
	"github.com/alice-trading/alice/app/settings"
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

// NewSettings is the settings service over store for surfaces that run
// without a core (`alice config`): its Validate and every raw write's
// draft check are Validate with getenv. The running App has its own
// (App.Settings), which also wakes the heartbeat on a heartbeat.json edit.
func NewSettings(store *config.Store, getenv func(string) string) *settings.Service {
	return settings.New(store, settings.Options{Check: func(s *config.Store) error { return Validate(s, getenv) }})
}
