package aitools

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Calculate evaluates + - * / and parentheses over decimals with a small
// recursive-descent parser (no eval, no floats).
func Calculate(expr string) (decimal.Decimal, error) {
	p := &calc{s: strings.TrimSpace(expr)}
	if p.s == "" {
		return decimal.Zero, errors.New("empty expression")
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
	d, err := decimal.NewFromString(p.s[start:p.i])
	if err != nil {
		return decimal.Zero, fmt.Errorf("bad number %q at position %d", p.s[start:p.i], start+1)
	}
	return d, nil
}
