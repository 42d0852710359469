package uta

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"strings"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading/alpaca"
	"github.com/alice-trading/alice/trading/binance"
	"github.com/alice-trading/alice/trading/bybit"
	"github.com/alice-trading/alice/trading/guard"
	"github.com/alice-trading/alice/trading/ibkr"
	"github.com/alice-trading/alice/trading/sim"
)

// PresetCheck decodes and validates a preset's presetConfig without
// building a broker or touching disk or network. On error it returns the
// offending key relative to presetConfig ("" for the whole object).
type PresetCheck func(raw json.RawMessage, getenv func(string) string) (key string, err error)

// PresetChecks are the built-in presets' validators, keyed by presetId.
// "mock-simulator" is OpenAlice's id for the simulator, accepted so its
// accounts.json loads unchanged.
func PresetChecks() map[string]PresetCheck {
	simCheck := func(raw json.RawMessage, _ func(string) string) (string, error) {
		_, key, err := sim.ParseConfig(raw)
		return key, err
	}
	checks := map[string]PresetCheck{
		"simulator":      simCheck,
		"mock-simulator": simCheck,
		"alpaca": func(raw json.RawMessage, getenv func(string) string) (string, error) {
			_, key, err := alpaca.ParseConfig(raw, getenv)
			return key, err
		},
		"bybit": func(raw json.RawMessage, getenv func(string) string) (string, error) {
			_, key, err := bybit.ParseConfig(raw, getenv)
			return key, err
		},
		"binance": func(raw json.RawMessage, getenv func(string) string) (string, error) {
			_, key, err := binance.ParseConfig(raw, getenv)
			return key, err
		},
		"ibkr-tws": func(raw json.RawMessage, _ func(string) string) (string, error) {
			_, key, err := ibkr.ParseConfig(raw)
			return key, err
		},
	}
	for id, c := range taggedChecks() { // -tags ccxt
		checks[id] = c
	}
	return checks
}

// knownPresets names the presets for error messages.
func knownPresets() string {
	var ids []string
	for id := range PresetChecks() {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}

// ValidateAccount is the one validation an account's broker settings get:
// `alice check`, start-up (app.Validate) and the Manager before it builds
// a broker all call it, so check can never pass what serve refuses. It
// checks the preset id, its presetConfig (including API keys taken from
// the environment) and the guard options. Errors are *config.Error naming
// file (accounts.json) and key (e.g. "[0].presetConfig.mode"). Account ids
// and required keys are config.Accounts.Validate's job (run on load).
func ValidateAccount(file string, idx int, acct config.Account, getenv func(string) string) error {
	if getenv == nil {
		getenv = os.Getenv
	}
	cfgErr := func(key string, err error) error {
		return &config.Error{File: file, Key: fmt.Sprintf("[%d]%s", idx, key), Msg: err.Error()}
	}
	check, ok := PresetChecks()[acct.Preset]
	if !ok {
		return cfgErr(".presetId", fmt.Errorf("unknown preset %q (known: %s)%s", acct.Preset, knownPresets(), missingHint(acct.Preset)))
	}
	if key, err := check(acct.PresetConfig, getenv); err != nil {
		if key != "" {
			return cfgErr(".presetConfig."+key, err)
		}
		return cfgErr(".presetConfig", err)
	}
	quiet := slog.New(slog.DiscardHandler)
	if _, gi, err := guard.NewPipeline(guard.DefaultRegistry(), acct.Guards, quiet); err != nil {
		var ut *guard.UnknownTypeError
		if errors.As(err, &ut) {
			return cfgErr(fmt.Sprintf(".guards[%d].type", gi), err)
		}
		return cfgErr(fmt.Sprintf(".guards[%d].options", gi), err)
	}
	return nil
}

// ValidateAccounts runs ValidateAccount on every enabled account of accts
// (the ones a start would build) and joins the errors. file is the path
// reported in errors. Settings forms call it on a candidate value before
// saving it.
func ValidateAccounts(file string, accts config.Accounts, getenv func(string) string) error {
	var errs []error
	for i, a := range accts {
		if !a.Enabled {
			continue
		}
		if err := ValidateAccount(file, i, a, getenv); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ValidateStore loads accounts.json from store (its own validation runs
// on load) and validates every enabled account.
func ValidateStore(store *config.Store, getenv func(string) string) error {
	accts, err := store.Accounts()
	if err != nil {
		return err
	}
	return ValidateAccounts(store.Path(config.AccountsFile), accts, getenv)
}
