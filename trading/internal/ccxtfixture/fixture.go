// Package ccxtfixture reads the CCXT project's static test recordings
// (shared/fixtures/ccxt-static, outside the repository; see its
// SOURCE.md): real exchange HTTP responses with CCXT's own parse of each,
// and the requests CCXT builds for unified calls. Broker adapters replay
// them through their real decoding code to check that what alice derives
// agrees with an independent implementation.
package ccxtfixture

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvDir overrides where the fixtures are looked for.
const EnvDir = "ALICE_CCXT_FIXTURES"

// Case is one recorded case of a unified method.
type Case struct {
	Description    string          `json:"description"`
	Method         string          `json:"method"`
	Input          []any           `json:"input"`
	HTTPResponse   json.RawMessage `json:"httpResponse"`
	ParsedResponse json.RawMessage `json:"parsedResponse"`
	URL            string          `json:"url"`
	Output         json.RawMessage `json:"output"`
	Disabled       bool            `json:"disabled"`
}

// File is one exchange's recordings.
type File struct {
	Exchange string            `json:"exchange"`
	Methods  map[string][]Case `json:"methods"`
}

// Dir finds the fixtures: $ALICE_CCXT_FIXTURES, else the first
// shared/fixtures/ccxt-static found walking up from the working
// directory (the repository's ../shared). It skips the test, saying why,
// when they are absent.
func Dir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv(EnvDir); d != "" {
		if _, err := os.Stat(filepath.Join(d, "SOURCE.md")); err != nil {
			t.Skipf("%s=%s has no SOURCE.md: %v", EnvDir, d, err)
		}
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Skipf("no working directory: %v", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		cand := filepath.Join(dir, "shared", "fixtures", "ccxt-static")
		if _, err := os.Stat(filepath.Join(cand, "SOURCE.md")); err == nil {
			return cand
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	t.Skipf("CCXT recordings not found (no shared/fixtures/ccxt-static above %s; set %s)", wd, EnvDir)
	return ""
}

// Load reads kind ("response" or "request") for an exchange.
func Load(t testing.TB, kind, exchange string) File {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(t), kind, exchange+".json"))
	if err != nil {
		t.Skipf("no CCXT %s recordings for %s: %v", kind, exchange, err)
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("CCXT %s/%s.json: %v", kind, exchange, err)
	}
	return f
}

// Cases returns a method's enabled cases, failing when there are none
// (a renamed method must not silently replay nothing).
func (f File) Cases(t testing.TB, method string) []Case {
	t.Helper()
	var out []Case
	for _, c := range f.Methods[method] {
		if !c.Disabled {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no enabled %s cases", f.Exchange, method)
	}
	return out
}

// Parsed decodes a case's parsedResponse (numbers kept exact).
func (c Case) Parsed(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(c.ParsedResponse, v); err != nil {
		t.Fatalf("%s: parsedResponse: %v", c.Description, err)
	}
}

// String names the case in failures.
func (c Case) String() string { return fmt.Sprintf("%s %q", c.Method, c.Description) }
