package aitools

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Limits of an expression: a caller (any MCP client) cannot make one call
// cost seconds of CPU and megabytes (a 3.8 MB product of 100-digit factors
// took 15-27 s). Arithmetic on money never needs more.
const (
	maxExprLen = 4096 // bytes of the expression
	maxDigits  = 100  // significant digits of any number or intermediate result
	maxBits    = 333  // about maxDigits decimal digits (10^100 < 2^333)
)

// Calculate evaluates + - * / and parentheses over decimals with a small
// recursive-descent parser (no eval, no floats).
func Calculate(expr string) (decimal.Decimal, error) {
	p := &calc{s: strings.TrimSpace(expr)}
	if p.s == "" {
		return decimal.Zero, errors.New("empty expression")
	}
	if len(p.s) > maxExprLen {
		return decimal.Zero, fmt.Errorf("expression is %d characters long; at most %d", len(p.s), maxExprLen)
	}
	v, err := p.sum()
	if err != nil {
		return decimal.Zero, err
	}
	p.space()
	if p.i < len(p.s) {
		return decimal.Zero, fmt.Errorf("unexpected %q at position %d", p.s[p.i], p.i+1)
	}
	return v, nil
}

type calc struct {
	s     string
	i     int
	depth int
}

func (p *calc) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *calc) sum() (decimal.Decimal, error) {
	v, err := p.product()
	for err == nil {
		p.space()
		if p.i >= len(p.s) || (p.s[p.i] != '+' && p.s[p.i] != '-') {
			return v, nil
		}
		op := p.s[p.i]
		p.i++
		var r decimal.Decimal
		if r, err = p.product(); err == nil {
			if op == '+' {
				v = v.Add(r)
			} else {
				v = v.Sub(r)
			}
			err = bounded(v)
		}
	}
	return v, err
}

func (p *calc) product() (decimal.Decimal, error) {
	v, err := p.unary()
	for err == nil {
		p.space()
		if p.i >= len(p.s) || (p.s[p.i] != '*' && p.s[p.i] != '/') {
			return v, nil
		}
		op := p.s[p.i]
		p.i++
		var r decimal.Decimal
		if r, err = p.unary(); err == nil {
			if op == '*' {
				v = v.Mul(r)
			} else {
				if r.IsZero() {
					return v, errors.New("division by zero")
				}
				v = v.DivRound(r, 16)
			}
			err = bounded(v)
		}
	}
	return v, err
}

func (p *calc) unary() (decimal.Decimal, error) {
	p.space()
	if p.i < len(p.s) && (p.s[p.i] == '-' || p.s[p.i] == '+') {
		neg := p.s[p.i] == '-'
		p.i++
		v, err := p.unary()
		if neg {
			v = v.Neg()
		}
		return v, err
	}
	return p.atom()
}

func (p *calc) atom() (decimal.Decimal, error) {
	p.space()
	if p.i >= len(p.s) {
		return decimal.Zero, errors.New("unexpected end of expression")
	}
	if p.s[p.i] == '(' {
		if p.depth++; p.depth > 100 {
			return decimal.Zero, errors.New("expression nested too deeply")
		}
		p.i++
		v, err := p.sum()
		if err != nil {
			return v, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return v, fmt.Errorf("missing ')' at position %d", p.i+1)
		}
		p.i++
		p.depth--
		return v, nil
	}
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '.') {
		p.i++
	}
	if start == p.i {
		return decimal.Zero, fmt.Errorf("unexpected %q at position %d (only numbers, + - * / and parentheses are allowed)", p.s[p.i], p.i+1)
	}
	if lit := p.s[start:p.i]; len(lit)-strings.Count(lit, ".") > maxDigits {
		return decimal.Zero, fmt.Errorf("number at position %d has more than %d digits", start+1, maxDigits)
	}
	d, err := decimal.NewFromString(p.s[start:p.i])
	if err != nil {
		return decimal.Zero, fmt.Errorf("bad number %q at position %d", p.s[start:p.i], start+1)
	}
	return d, nil
}

// bounded refuses a result past maxDigits significant digits (checked on
// the coefficient's bits: cheap, and before the next operation doubles it).
func bounded(v decimal.Decimal) error {
	if v.Coefficient().BitLen() > maxBits || v.Exponent() > maxDigits {
		return fmt.Errorf("a result has more than %d digits", maxDigits)
	}
	return nil
}
