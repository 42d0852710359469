package broker

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
)

// DecodePreset decodes an account's presetConfig into v strictly: an
// unknown key is an error that names it (key), so a misspelt "apiKeyEnv"
// is reported as accounts.json[i].presetConfig.<key> instead of being
// ignored while the adapter falls back to a default. Keys are matched
// exactly ("APIKEYENV" is unknown, not apiKeyEnv as encoding/json alone
// would take it). A value of the wrong type names its key and says what
// was expected ("expected a whole number, got 10.5"; the error wraps the
// *json.UnmarshalTypeError), and fields with a cfg rule (environment
// variable names, base URLs) are checked as in every config file
// (config.CheckFields). Empty raw leaves v as it is.
func DecodePreset(raw json.RawMessage, v any) (key string, err error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "", nil
	}
	if path, dup := core.DuplicateKey(raw); dup {
		return path, errors.New("duplicate key: given more than once (JSON would silently keep the last); keep one")
	}
	if k, known, ok := config.UnknownKey(raw, v); ok {
		// "unknown key "seeed" (did you mean "seed"?); known: …"
		last := k[strings.LastIndexAny(k, ".]")+1:]
		return k, errors.New(config.Unknown("key", last, known))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if k, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			k = strings.Trim(k, `"`)
			return k, errors.New(config.Unknown("key", k, config.JSONKeys(v)))
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return te.Field, &typeError{msg: config.TypeMismatch(te), err: te}
		}
		return "", err
	}
	return config.CheckFields(v)
}

// typeError is a presetConfig value of the wrong type, worded for people.
type typeError struct {
	msg string
	err *json.UnmarshalTypeError
}

func (e *typeError) Error() string { return e.msg }
func (e *typeError) Unwrap() error { return e.err }

// Credential resolves an API key or secret the way every adapter's
// presetConfig spells it: the value itself when set, else the environment
// variable named by env, else the adapter's default variable defEnv.
// Keeping keys out of accounts.json is the point of the *Env fields.
func Credential(value, env, defEnv string, getenv func(string) string) string {
	if value != "" {
		return value
	}
	if env == "" {
		env = defEnv
	}
	return getenv(env)
}
