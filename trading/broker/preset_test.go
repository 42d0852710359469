package broker

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodePreset(t *testing.T) {
	type cfg struct {
		APIKey    string `json:"apiKey"`
		Seed      int    `json:"seed"`
		APIKeyEnv string `json:"apiKeyEnv,omitempty" cfg:"env"`
		BaseURL   string `json:"baseUrl,omitempty" cfg:"baseurl"`
	}
	for _, tc := range []struct {
		name, raw string
		want      cfg
		key, err  string
	}{
		{name: "empty keeps defaults", raw: "  ", want: cfg{Seed: 7}},
		{name: "known keys", raw: `{"apiKey":"k","seed":3}`, want: cfg{APIKey: "k", Seed: 3}},
		{name: "misspelt key is named", raw: `{"apiKeyEnvvv":"k"}`, want: cfg{Seed: 7}, key: "apiKeyEnvvv", err: `unknown key "apiKeyEnvvv" (did you mean "apiKeyEnv"?); known: apiKey, apiKeyEnv, baseUrl, seed`},
		{name: "far-off key lists the known ones", raw: `{"zzz":"k"}`, want: cfg{Seed: 7}, key: "zzz", err: `unknown key "zzz"; known: apiKey, apiKeyEnv, baseUrl, seed`},
		{name: "typo gets the nearest name", raw: `{"seeed":3}`, want: cfg{Seed: 7}, key: "seeed", err: `unknown key "seeed" (did you mean "seed"?); known: apiKey, apiKeyEnv, baseUrl, seed`},
		// encoding/json alone takes any case: "Seed" would set seed.
		{name: "another case is an unknown key", raw: `{"Seed":3}`, want: cfg{Seed: 7}, key: "Seed", err: `unknown key "Seed" (did you mean "seed"?)`},
		{name: "a case twin after the key is unknown too", raw: `{"seed":3,"SEED":4}`, want: cfg{Seed: 7}, key: "SEED", err: `unknown key "SEED" (did you mean "seed"?)`},
		{name: "fraction for a whole number", raw: `{"seed":10.5}`, want: cfg{Seed: 7}, key: "seed", err: "expected a whole number, got 10.5"},
		{name: "string for a whole number", raw: `{"seed":"x"}`, want: cfg{Seed: 7}, key: "seed", err: "expected a whole number, got JSON string"},
		{name: "env var name", raw: `{"apiKeyEnv":"bad var=1"}`, want: cfg{Seed: 7, APIKeyEnv: "bad var=1"}, key: "apiKeyEnv", err: `must be the NAME of an environment variable`},
		{name: "base URL", raw: `{"baseUrl":"not a url"}`, want: cfg{Seed: 7, BaseURL: "not a url"}, key: "baseUrl", err: `must be an absolute http(s) URL`},
		{name: "good env and URL", raw: `{"apiKeyEnv":"MY_KEY","baseUrl":"https://paper-api.example.com/v2"}`, want: cfg{Seed: 7, APIKeyEnv: "MY_KEY", BaseURL: "https://paper-api.example.com/v2"}},
		{name: "duplicate key refused", raw: `{"seed":1,"seed":2}`, want: cfg{Seed: 7}, key: "seed", err: "duplicate key"},
		{name: "nested duplicate key refused", raw: `{"apiKey":"k","x":{"a":1,"a":2}}`, want: cfg{Seed: 7}, key: "x.a", err: "duplicate key"},
		{name: "not an object", raw: `[1]`, want: cfg{Seed: 7}, err: "cannot unmarshal array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := cfg{Seed: 7}
			key, err := DecodePreset(json.RawMessage(tc.raw), &got)
			assert.Equal(t, tc.key, key)
			if tc.err == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)
				return
			}
			require.ErrorContains(t, err, tc.err)
			if tc.key != "" {
				assert.Equal(t, tc.want, got)
			}
		})
	}
}

func TestCredential(t *testing.T) {
	env := map[string]string{"DEFAULT_KEY": "from-default", "MY_KEY": "from-mine"}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct{ value, env, want string }{
		{"inline", "MY_KEY", "inline"},
		{"", "MY_KEY", "from-mine"},
		{"", "", "from-default"},
		{"", "UNSET", ""},
	} {
		assert.Equal(t, tc.want, Credential(tc.value, tc.env, "DEFAULT_KEY", getenv), "%+v", tc)
	}
}
