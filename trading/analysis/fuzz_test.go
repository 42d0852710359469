package analysis

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/alice-trading/alice/trading"
)

// FuzzParse checks that no input panics the lexer, parser or evaluator and
// that every error is positioned inside (or at the end of) the formula.
// `go test` runs only the seed corpus; run `go test -fuzz=FuzzParse
// ./trading/analysis` to explore.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"SMA(CLOSE('TEST','1d'),10)", "1+2*3", "-(-1)", "CLOSE('TEST','1d')[-1]", "MACD(CLOSE('TEST'),12,26,9)",
		"BBANDS(CLOSE(\"TEST\",'1d'),20,2)", "((((", "))))", "[1]", "1e", "1e+", ".", "'", "\"x", "SMA(,)",
		"ATR(HIGH('TEST','1d'),LOW('TEST','1d'),CLOSE('TEST','1d'))", "CLOSE('TEST','1d')[1e300]", "9/0", "é", "\x00",
	} {
		f.Add(s)
	}
	ev := NewEvaluator(&fixtureSource{}, func() time.Time { return fixedNow })
	f.Fuzz(func(t *testing.T, src string) {
		_, perr := Parse(src)
		if perr != nil {
			var e *Error
			if !errors.As(perr, &e) {
				t.Fatalf("parse error without position: %v", perr)
			}
			if e.Pos < 0 || e.Pos > len(src) {
				t.Fatalf("position %d outside formula of length %d", e.Pos, len(src))
			}
		}
		_, err := ev.Evaluate(context.Background(), src, trading.Equity)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("evaluation error without position: %v", err)
			}
			if e.Pos < 0 || e.Pos > len(src) {
				t.Fatalf("position %d outside formula of length %d", e.Pos, len(src))
			}
		}
		if perr != nil && err == nil {
			t.Fatalf("evaluation succeeded on unparseable %q", src)
		}
	})
}
