package analysis

import (
	"strings"
)

// Limits that keep hostile formulas cheap to reject.
const (
	MaxFormulaLen = 4000
	maxDepth      = 64
)

// Node is an AST node. Pos is the byte offset of its first token (for a
// binary expression: its operator).
type Node interface{ pos() int }

// Number is a numeric literal.
type Number struct {
	Pos   int
	Value float64
}

// String is a quoted literal.
type String struct {
	Pos   int
	Value string
}

// Call is NAME(args…); Name is upper-cased.
type Call struct {
	Pos  int
	Name string
	Args []Node
}

// Binary is L op R with op one of + - * /.
type Binary struct {
	Pos  int
	Op   byte
	L, R Node
}

// Neg is unary minus.
type Neg struct {
	Pos int
	X   Node
}

// Index is X[I]; a negative index counts from the end.
type Index struct {
	Pos  int
	X, I Node
}

func (n *Number) pos() int { return n.Pos }
func (n *String) pos() int { return n.Pos }
func (n *Call) pos() int   { return n.Pos }
func (n *Binary) pos() int { return n.Pos }
func (n *Neg) pos() int    { return n.Pos }
func (n *Index) pos() int  { return n.Pos }

type parser struct {
	toks  []token
	i     int
	depth int
}

// Parse turns a formula into an AST. Errors are *Error with a position.
func Parse(src string) (Node, error) {
	if strings.TrimSpace(src) == "" {
		return nil, errAt(0, "formula is empty")
	}
	if len(src) > MaxFormulaLen {
		return nil, errAt(MaxFormulaLen, "formula is longer than %d characters", MaxFormulaLen)
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, errAt(t.pos, "unexpected %s after complete expression", t.describe())
	}
	return n, nil
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *parser) expect(k tokKind) (token, error) {
	t := p.peek()
	if t.kind != k {
		return t, errAt(t.pos, "expected %s, found %s", k, t.describe())
	}
	return p.next(), nil
}

func (p *parser) enter(pos int) error {
	p.depth++
	if p.depth > maxDepth {
		return errAt(pos, "formula nests deeper than %d levels", maxDepth)
	}
	return nil
}

// expr := term (('+'|'-') term)*
func (p *parser) expr() (Node, error) {
	if err := p.enter(p.peek().pos); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	l, err := p.term()
	if err != nil {
		return nil, err
	}
	for t := p.peek(); t.kind == tokOp && (t.text == "+" || t.text == "-"); t = p.peek() {
		p.next()
		r, err := p.term()
		if err != nil {
			return nil, err
		}
		l = &Binary{Pos: t.pos, Op: t.text[0], L: l, R: r}
	}
	return l, nil
}

// term := unary (('*'|'/') unary)*
func (p *parser) term() (Node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for t := p.peek(); t.kind == tokOp && (t.text == "*" || t.text == "/"); t = p.peek() {
		p.next()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = &Binary{Pos: t.pos, Op: t.text[0], L: l, R: r}
	}
	return l, nil
}

// unary := ('-'|'+') unary | postfix
func (p *parser) unary() (Node, error) {
	t := p.peek()
	if t.kind == tokOp && (t.text == "-" || t.text == "+") {
		if err := p.enter(t.pos); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if t.text == "+" {
			return x, nil
		}
		if n, ok := x.(*Number); ok { // fold "-5" into a literal
			return &Number{Pos: t.pos, Value: -n.Value}, nil
		}
		return &Neg{Pos: t.pos, X: x}, nil
	}
	return p.postfix()
}

// postfix := primary ('[' expr ']')*
func (p *parser) postfix() (Node, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for p.peek().kind == tokLBrack {
		lb := p.next()
		i, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(tokRBrack); err != nil {
			return nil, err
		}
		x = &Index{Pos: lb.pos, X: x, I: i}
	}
	return x, nil
}

// primary := NUMBER | STRING | NAME '(' args ')' | '(' expr ')'
func (p *parser) primary() (Node, error) {
	t := p.next()
	switch t.kind {
	case tokNumber:
		return &Number{Pos: t.pos, Value: t.num}, nil
	case tokString:
		return &String{Pos: t.pos, Value: t.text}, nil
	case tokLParen:
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(tokRParen); err != nil {
			return nil, err
		}
		return x, nil
	case tokIdent:
		if p.peek().kind != tokLParen {
			return nil, errAt(t.pos, "unknown name %q (functions need parentheses, strings need quotes)", t.text)
		}
		p.next()
		c := &Call{Pos: t.pos, Name: strings.ToUpper(t.text)}
		if p.peek().kind == tokRParen {
			p.next()
			return c, nil
		}
		for {
			a, err := p.expr()
			if err != nil {
				return nil, err
			}
			c.Args = append(c.Args, a)
			sep := p.next()
			if sep.kind == tokRParen {
				return c, nil
			}
			if sep.kind != tokComma {
				return nil, errAt(sep.pos, "expected ',' or ')' in call to %s, found %s", c.Name, sep.describe())
			}
		}
	}
	return nil, errAt(t.pos, "expected a number, string, function call or '(', found %s", t.describe())
}
