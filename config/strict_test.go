package config

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadErr writes body as file in a fresh store and checks it the way
// start-up and `alice check` do (Store.Check: the file's typed loader).
func loadErr(t *testing.T, file, body string) (*Store, error) {
	t.Helper()
	s := NewStore(t.TempDir())
	require.NoError(t, os.WriteFile(s.Path(file), []byte(body), 0o600))
	return s, s.Check(file)
}

// requireKeyError asserts err is a config error naming file and key and
// containing msg, and that the file was left as written.
func requireKeyError(t *testing.T, s *Store, err error, file, body, key, msg string) {
	t.Helper()
	var ce *Error
	require.True(t, errors.As(err, &ce), "want a *config.Error for %s, got %v", body, err)
	assert.Equal(t, s.Path(file), ce.File)
	assert.Equal(t, key, ce.Key, "%s", ce)
	assert.Contains(t, ce.Error(), msg)
	b, rerr := os.ReadFile(s.Path(file))
	require.NoError(t, rerr)
	assert.Equal(t, body, string(b), "a refused file is never rewritten")
}

// TestKeysMatchExactly: encoding/json takes "EscapeTimeMs" (or any other
// case) for "escapeTimeMs" and lets the last of two spellings win; alice
// reports every key that is not exactly a known one, at every level and
// in lists, naming the file, the key and the nearest known name.
func TestKeysMatchExactly(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, file, body, key, msg string
	}{
		{"top level", WorkspacesFile, `{"EscapeTimeMs":200}`, "EscapeTimeMs", `unknown key (did you mean "escapeTimeMs"?)`},
		{"case twin after the key does not win", WorkspacesFile, `{"escapeTimeMs":10,"ESCAPETIMEMS":300}`, "ESCAPETIMEMS", `unknown key (did you mean "escapeTimeMs"?)`},
		{"case twin before the key", WorkspacesFile, `{"escapetimems":300,"escapeTimeMs":10}`, "escapetimems", `did you mean "escapeTimeMs"?`},
		{"nested object", ConnectorsFile, `{"mcpAsk":{"enabled":true,"Port":4000}}`, "mcpAsk.Port", `did you mean "port"?`},
		{"nested object key", ConnectorsFile, `{"Telegram":{"enabled":false}}`, "Telegram", `did you mean "telegram"?`},
		{"map of objects", AIProviderFile, `{"profiles":{"a":{"backend":"openai","BaseUrl":"http://x"}}}`, "profiles.a.BaseUrl", `did you mean "baseUrl"?`},
		{"map of objects, upper case", AIProviderFile, `{"profiles":{"a":{"BACKEND":"openai"}}}`, "profiles.a.BACKEND", `did you mean "backend"?`},
		{"list of objects", ChannelsFile, `{"channels":[{"id":"a","label":"A"},{"id":"b","Label":"B"}]}`, "channels[1].Label", `did you mean "label"?`},
		{"map in a file with lists", ChannelsFile, `{"channels":[],"workspaces":{"w":{"Profile":"x"}}}`, "workspaces.w.Profile", `did you mean "profile"?`},
		{"feed list", NewsFile, `{"feeds":[{"name":"x","URL":"https://x.test/rss","source":"x","enabled":true}]}`, "feeds[0].URL", `did you mean "url"?`},
		{"pointer struct", HeartbeatFile, `{"every":"30m","activeHours":{"Start":"09:00","end":"17:00"}}`, "activeHours.Start", `did you mean "start"?`},
		{"pointer struct target", HeartbeatFile, `{"every":"30m","target":{"kind":"alice","TimeoutSec":5}}`, "target.TimeoutSec", `did you mean "timeoutSec"?`},
		{"research source", ResearchFile, `{"fred":{"apiKeyENV":"FRED"}}`, "fred.apiKeyENV", `did you mean "apiKeyEnv"?`},
		{"attach ssh", AttachFile, `{"ssh":{"enabled":false,"PORT":22}}`, "ssh.PORT", `did you mean "port"?`},
		{"webhook token list", WebhookFile, `{"tokens":[{"id":"a","Token":"12345678","createdAt":1}]}`, "tokens[0].Token", `did you mean "token"?`},
		{"mcp", MCPFile, `{"Port":3001}`, "Port", `did you mean "port"?`},
		{"tools", ToolsFile, `{"Disabled":["x"]}`, "Disabled", `did you mean "disabled"?`},
		{"agent", AgentFile, `{"maxsteps":3}`, "maxsteps", `did you mean "maxSteps"?`},
		{"market data", MarketDataFile, `{"Backend":"simulated"}`, "Backend", `did you mean "backend"?`},
		{"snapshot", SnapshotFile, `{"Every":"1m"}`, "Every", `did you mean "every"?`},
		{"compaction", CompactionFile, `{"MaxContextTokens":1}`, "MaxContextTokens", `did you mean "maxContextTokens"?`},
		{"account", AccountsFile, `[{"id":"a","presetId":"simulator","Guards":[]}]`, "[0].Guards", `did you mean "guards"?`},
		{"account guard in a list", AccountsFile, `[{"id":"a","presetId":"simulator","guards":[{"type":"cooldown"},{"Type":"cooldown"}]}]`, "[0].guards[1].Type", `did you mean "type"?`},
		{"second account", AccountsFile, `[{"id":"a","presetId":"simulator"},{"id":"b","PresetId":"simulator"}]`, "[1].PresetId", `did you mean "presetId"?`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := loadErr(t, tc.file, tc.body)
			requireKeyError(t, s, err, tc.file, tc.body, tc.key, tc.msg)
		})
	}
}

// TestEveryKeyOfEveryFileIsCaseExact flips the case of the first letter
// of every key every config file declares, at every level (through lists
// and maps of objects), and expects that spelling refused with the exact
// key as the nearest name. Free-form objects (guard options, presetConfig,
// which broker.DecodePreset checks) have no declared keys here.
func TestEveryKeyOfEveryFileIsCaseExact(t *testing.T) {
	t.Parallel()
	checked := 0
	for name, def := range schemaFiles() {
		for _, p := range declaredKeys(reflect.TypeOf(def), nil) {
			last := p[len(p)-1].(string)
			r := []rune(last)
			if unicode.IsUpper(r[0]) {
				r[0] = unicode.ToLower(r[0])
			} else {
				r[0] = unicode.ToUpper(r[0])
			}
			flipped := append(append([]any(nil), p[:len(p)-1]...), string(r))
			body, key := bodyWith(flipped, "0")
			checked++
			t.Run(name+"/"+key, func(t *testing.T) {
				t.Parallel()
				s, err := loadErr(t, name, body)
				requireKeyError(t, s, err, name, body, key, fmt.Sprintf("did you mean %q?", last))
			})
		}
	}
	require.Greater(t, checked, 100, "every key of every file")
}

// declaredKeys lists the path (keys; 0 for a list element, "m" for a
// map entry) of every key the structs under typ declare.
func declaredKeys(typ reflect.Type, steps []any) [][]any {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	var out [][]any
	switch typ.Kind() {
	case reflect.Struct:
		fields := jsonFields(typ)
		for _, k := range sortedKeys(fields) {
			p := append(append([]any(nil), steps...), k)
			out = append(out, p)
			out = append(out, declaredKeys(fields[k], p)...)
		}
	case reflect.Slice, reflect.Array:
		if typ.Elem().Kind() != reflect.Uint8 {
			out = append(out, declaredKeys(typ.Elem(), append(append([]any(nil), steps...), 0))...)
		}
	case reflect.Map:
		out = append(out, declaredKeys(typ.Elem(), append(append([]any(nil), steps...), "m"))...)
	}
	return out
}

// bodyWith builds the JSON that puts the literal val at path, and the key
// alice names for it.
func bodyWith(path []any, val string) (body, key string) {
	body = val
	for i := len(path) - 1; i >= 0; i-- {
		switch st := path[i].(type) {
		case int:
			body = "[" + body + "]"
		case string:
			body = fmt.Sprintf("{%q:%s}", st, body)
		}
	}
	for i, st := range path {
		switch st := st.(type) {
		case int:
			key += fmt.Sprintf("[%d]", st)
		case string:
			if i > 0 {
				key += "."
			}
			key += st
		}
	}
	return body, key
}

// TestEditIgnoresCaseTwins: an in-app edit of a file holding a case twin
// ("EscapeTimeMs") does not take it for the known key; the twin stays in
// the file (as every unknown key does) and is reported on the next load.
func TestEditIgnoresCaseTwins(t *testing.T) {
	t.Parallel()
	s := NewStore(t.TempDir())
	require.NoError(t, os.WriteFile(s.Path(WorkspacesFile), []byte(`{"EscapeTimeMs":200,"scrollbackLines":500}`), 0o600))
	got, _, err := Edit(s, WorkspacesFile, "", DefaultWorkspaces, func(w *Workspaces) error {
		assert.Equal(t, 10, w.EscapeTimeMs, "the twin is not the key")
		assert.Equal(t, 500, w.ScrollbackLines)
		w.ScrollbackBudgetMB = 32
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 10, got.EscapeTimeMs)
	err = s.Check(WorkspacesFile)
	var ce *Error
	require.True(t, errors.As(err, &ce), "%v", err)
	assert.Equal(t, "EscapeTimeMs", ce.Key)
}

// TestWholeNumberWording: a fraction for an integer key reads "expected a
// whole number, got 10.5" (encoding/json's own words were "expected a
// number, got JSON number 10.5"), for every integer key of every file.
func TestWholeNumberWording(t *testing.T) {
	t.Parallel()
	files := schemaFiles()
	checked := 0
	for name, def := range files {
		for _, p := range intKeys(reflect.TypeOf(def), nil) {
			body, key := bodyWith(p, "10.5")
			checked++
			t.Run(name+"/"+key, func(t *testing.T) {
				t.Parallel()
				s, err := loadErr(t, name, body)
				requireKeyError(t, s, err, name, body, key, "expected a whole number, got 10.5")
				assert.NotContains(t, err.Error(), "JSON number")
			})
		}
	}
	require.GreaterOrEqual(t, checked, 20)

	cases := []struct{ name, file, body, key, msg string }{
		{"escape time", WorkspacesFile, `{"escapeTimeMs":10.5}`, "escapeTimeMs", `key "escapeTimeMs": expected a whole number, got 10.5`},
		{"string", MCPFile, `{"port":"3001"}`, "port", "expected a whole number, got JSON string"},
		{"bool", MCPFile, `{"port":true}`, "port", "expected a whole number, got JSON bool"},
		{"exponent", MCPFile, `{"port":3e3}`, "port", "expected a whole number written in digits only (no fraction or exponent), got 3e3"},
		{"too large", MarketDataFile, `{"seed":99999999999999999999}`, "seed", "expected a whole number from -9223372036854775808 to 9223372036854775807, got 99999999999999999999"},
		{"in a list", ConnectorsFile, `{"telegram":{"chatIds":[1,2.5]}}`, "telegram.chatIds[1]", "expected a whole number, got 2.5"},
		{"in a list of objects", WebhookFile, `{"tokens":[{"id":"a","token":"12345678","createdAt":1},{"id":"b","token":"12345678","createdAt":1.5}]}`, "tokens[1].createdAt", "expected a whole number, got 1.5"},
		{"other types keep their wording", MCPFile, `{"host":5}`, "host", "expected a string, got JSON number"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := loadErr(t, tc.file, tc.body)
			requireKeyError(t, s, err, tc.file, tc.body, tc.key, tc.msg)
		})
	}
}

// intKeys lists the paths (keys, and 0 for a list element) of every
// integer-typed key under typ.
func intKeys(typ reflect.Type, steps []any) [][]any {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	var out [][]any
	switch {
	case isIntKind(typ.Kind()):
		return [][]any{steps}
	case typ.Kind() == reflect.Struct:
		fields := jsonFields(typ)
		for _, k := range sortedKeys(fields) {
			out = append(out, intKeys(fields[k], append(append([]any(nil), steps...), k))...)
		}
	case typ.Kind() == reflect.Slice && typ.Elem().Kind() != reflect.Uint8:
		out = append(out, intKeys(typ.Elem(), append(append([]any(nil), steps...), 0))...)
	}
	return out
}

// TestEnvNamesURLsAndProfileNames: the rules the Settings forms promise
// are the config's own, so `alice check`, start-up and the forms refuse
// the same values.
func TestEnvNamesURLsAndProfileNames(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, file, body, key, msg string }{
		{"profile name", AIProviderFile, `{"profiles":{"My Prof 日本🚀!@#":{"backend":"openai"}}}`, "profiles.My Prof 日本🚀!@#", `a profile name must be letters, digits, - or _ (A-Z, a-z, 0-9), got "My Prof 日本🚀!@#"`},
		{"profile name with a dot", AIProviderFile, `{"profiles":{"gpt.4":{"backend":"openai"}}}`, "profiles.gpt.4", `letters, digits, - or _`},
		{"profile base URL", AIProviderFile, `{"profiles":{"p":{"backend":"openai","baseUrl":"not a url"}}}`, "profiles.p.baseUrl", `must be an absolute http(s) URL such as "http://127.0.0.1:11434/v1" (no query or fragment), got "not a url"`},
		{"profile base URL without scheme", AIProviderFile, `{"profiles":{"p":{"backend":"openai","baseUrl":"127.0.0.1:11434/v1"}}}`, "profiles.p.baseUrl", "absolute http(s) URL"},
		{"profile base URL without host", AIProviderFile, `{"profiles":{"p":{"backend":"openai","baseUrl":"http:///v1"}}}`, "profiles.p.baseUrl", "absolute http(s) URL"},
		{"profile env var", AIProviderFile, `{"profiles":{"p":{"backend":"openai","apiKeyEnv":"bad var=1"}}}`, "profiles.p.apiKeyEnv", `must be the NAME of an environment variable (letters, digits and _, not starting with a digit, e.g. OPENAI_API_KEY), got "bad var=1"`},
		{"telegram env var", ConnectorsFile, `{"telegram":{"enabled":false,"botTokenEnv":"bad env"}}`, "telegram.botTokenEnv", `NAME of an environment variable`},
		{"telegram api URL", ConnectorsFile, `{"telegram":{"enabled":false,"apiBaseUrl":"api.telegram.org"}}`, "telegram.apiBaseUrl", "absolute http(s) URL"},
		{"market data env var", MarketDataFile, `{"backend":"openbb","apiKeyEnv":"1KEY"}`, "apiKeyEnv", "NAME of an environment variable"},
		{"market data secret env var", MarketDataFile, `{"backend":"alpaca","apiSecretEnv":"A-B"}`, "apiSecretEnv", "NAME of an environment variable"},
		{"market data URL", MarketDataFile, `{"backend":"openbb","baseUrl":"ftp://x"}`, "baseUrl", "absolute http(s) URL"},
		{"research env var", ResearchFile, `{"fred":{"apiKeyEnv":"FRED KEY"}}`, "fred.apiKeyEnv", "NAME of an environment variable"},
		{"research URL with a query", ResearchFile, `{"sec":{"baseUrl":"https://data.sec.gov?x=1"}}`, "sec.baseUrl", "no query or fragment"},
		{"feed URL", NewsFile, `{"feeds":[{"name":"a","url":"https://a.test/rss","source":"a","enabled":true},{"name":"b","url":"notthere.test/rss","source":"b","enabled":true}]}`, "feeds[1].url", `must be an absolute http(s) URL such as "https://example.com/feed.xml", got "notthere.test/rss"`},
		{"empty feed URL", NewsFile, `{"feeds":[{"name":"a","url":"","source":"a","enabled":true}]}`, "feeds[0].url", "is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := loadErr(t, tc.file, tc.body)
			requireKeyError(t, s, err, tc.file, tc.body, tc.key, tc.msg)
		})
	}

	ok := []struct{ name, file, body string }{
		{"good profile", AIProviderFile, `{"activeProfile":"local-1_B","profiles":{"local-1_B":{"backend":"openai","baseUrl":"http://127.0.0.1:11434/v1","apiKeyEnv":"_OLLAMA_KEY2"}}}`},
		{"good telegram", ConnectorsFile, `{"telegram":{"enabled":true,"botTokenEnv":"TELEGRAM_BOT_TOKEN","apiBaseUrl":"http://127.0.0.1:8081"}}`},
		{"feed with a query", NewsFile, `{"feeds":[{"name":"a","url":"https://a.test/rss?cat=1","source":"a","enabled":true}]}`},
		{"unset fields", ResearchFile, `{"fred":{"apiKeyEnv":""},"sec":{"baseUrl":""}}`},
	}
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := loadErr(t, tc.file, tc.body)
			require.NoError(t, err)
		})
	}
}

// TestEnvAndURLKeysAllHaveARule: a new *Env or *Url key cannot skip the
// shared rules (CheckFields): its field must carry cfg:"env" or a URL rule.
func TestEnvAndURLKeysAllHaveARule(t *testing.T) {
	t.Parallel()
	var found []string
	var walk func(typ reflect.Type, at string)
	walk = func(typ reflect.Type, at string) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct {
			return
		}
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			lower := strings.ToLower(name)
			rule := f.Tag.Get("cfg")
			switch {
			case strings.HasSuffix(name, "Env"):
				assert.Equal(t, "env", rule, "%s.%s names an environment variable", at, name)
				found = append(found, at+"."+name)
			case strings.HasSuffix(lower, "url"):
				assert.Contains(t, []string{"url", "baseurl"}, rule, "%s.%s is a URL", at, name)
				found = append(found, at+"."+name)
			}
			walk(f.Type, at+"."+name)
		}
	}
	for name, def := range schemaFiles() {
		walk(reflect.TypeOf(def), name)
	}
	sort.Strings(found)
	// Every one of them, so a rule cannot silently stop applying.
	assert.Equal(t, []string{
		"ai-provider.json.profiles.apiKeyEnv", "ai-provider.json.profiles.baseUrl",
		"connectors.json.telegram.apiBaseUrl", "connectors.json.telegram.botTokenEnv",
		"market-data.json.apiKeyEnv", "market-data.json.apiSecretEnv", "market-data.json.baseUrl",
		"news.json.feeds.url",
		"research.json.bls.apiKeyEnv", "research.json.bls.baseUrl",
		"research.json.eia.apiKeyEnv", "research.json.eia.baseUrl",
		"research.json.fred.apiKeyEnv", "research.json.fred.baseUrl",
		"research.json.nasdaq.apiKeyEnv", "research.json.nasdaq.baseUrl",
		"research.json.sec.apiKeyEnv", "research.json.sec.baseUrl",
		"research.json.secArchives.apiKeyEnv", "research.json.secArchives.baseUrl",
		"research.json.yahoo.apiKeyEnv", "research.json.yahoo.baseUrl",
	}, found)
}
