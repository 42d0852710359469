// Package analysis evaluates the calculateIndicator formula language: a
// small Excel-like expression syntax over price series, e.g.
//
//	SMA(CLOSE('AAPL', '1d'), 20) - CLOSE('AAPL', '1d')[-1]
//
// It is a hand-written lexer and recursive-descent parser producing an AST,
// and a tree-walking evaluator whose data functions fetch bars through the
// BarSource interface. Every error carries the 0-based byte offset of the
// offending token so the model can fix its formula.
package analysis

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a parse or evaluation error at a position in the formula.
type Error struct {
	Pos int // 0-based byte offset into the formula
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("at %d: %s", e.Pos, e.Msg) }

func errAt(pos int, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokNumber
	tokString
	tokIdent
	tokOp     // + - * /
	tokLParen // (
	tokRParen // )
	tokLBrack // [
	tokRBrack // ]
	tokComma
)

func (k tokKind) String() string {
	return [...]string{"end of formula", "number", "string", "name", "operator", "'('", "')'", "'['", "']'", "','"}[k]
}

type token struct {
	kind tokKind
	pos  int
	text string  // identifier, operator, or string contents
	num  float64 // for tokNumber
}

func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "end of formula"
	case tokString:
		return strconv.Quote(t.text)
	case tokNumber, tokIdent, tokOp:
		return "'" + t.text + "'"
	}
	return t.kind.String()
}

// lex splits the formula into tokens.
func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c >= '0' && c <= '9' || c == '.':
			start := i
			for i < len(src) && (src[i] >= '0' && src[i] <= '9' || src[i] == '.') {
				i++
			}
			// Optional exponent: 1e-3, 2.5E6.
			if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
				j := i + 1
				if j < len(src) && (src[j] == '+' || src[j] == '-') {
					j++
				}
				if j < len(src) && src[j] >= '0' && src[j] <= '9' {
					for j < len(src) && src[j] >= '0' && src[j] <= '9' {
						j++
					}
					i = j
				}
			}
			text := src[start:i]
			v, err := strconv.ParseFloat(text, 64)
			if err != nil {
				return nil, errAt(start, "invalid number %q", text)
			}
			toks = append(toks, token{kind: tokNumber, pos: start, text: text, num: v})
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			start := i
			for i < len(src) && (src[i] == '_' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z' || src[i] >= '0' && src[i] <= '9') {
				i++
			}
			toks = append(toks, token{kind: tokIdent, pos: start, text: src[start:i]})
		case c == '\'' || c == '"':
			start := i
			end := strings.IndexByte(src[i+1:], c)
			if end < 0 {
				return nil, errAt(start, "unterminated string (missing closing %c)", c)
			}
			toks = append(toks, token{kind: tokString, pos: start, text: src[i+1 : i+1+end]})
			i += end + 2
		case c == '+' || c == '-' || c == '*' || c == '/':
			toks = append(toks, token{kind: tokOp, pos: i, text: string(c)})
			i++
		case c == '(' || c == ')' || c == '[' || c == ']' || c == ',':
			k := map[byte]tokKind{'(': tokLParen, ')': tokRParen, '[': tokLBrack, ']': tokRBrack, ',': tokComma}[c]
			toks = append(toks, token{kind: k, pos: i, text: string(c)})
			i++
		default:
			r := []rune(src[i:])[0]
			return nil, errAt(i, "unexpected character %q", r)
		}
	}
	return append(toks, token{kind: tokEOF, pos: len(src)}), nil
}
