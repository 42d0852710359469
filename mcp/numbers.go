package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/alice-trading/alice/core"
)

// maxNumberChars bounds a JSON number literal in a request. Decimal
// values (quantities, prices) travel as strings; a number is at most an
// integer or a float64, which never needs more characters than this.
const maxNumberChars = 64

// badNumber finds the first number literal in a JSON text that the MCP
// layer could not represent: longer than maxNumberChars, or beyond
// float64 (mcp-go decodes arguments into float64 and would answer with a
// protocol error quoting the whole literal). It returns the object key
// the literal belongs to ("" at the top of an array) and a short
// description. One pass over the bytes, no allocation on the common path.
func badNumber(body []byte) (key, problem string, found bool) {
	var lastStr, curKey []byte
	for i := 0; i < len(body); i++ {
		switch b := body[i]; {
		case b == '"':
			j := i + 1
			for j < len(body) && body[j] != '"' {
				if body[j] == '\\' {
					j++
				}
				j++
			}
			if j > len(body) {
				j = len(body)
			}
			lastStr = body[i+1 : j]
			i = j
		case b == ':':
			curKey = lastStr
		case b == '-' || (b >= '0' && b <= '9'):
			j := i
			for j < len(body) && numByte(body[j]) {
				j++
			}
			lit := body[i:j]
			if len(lit) > maxNumberChars {
				return string(clipKey(curKey)), fmt.Sprintf("a number of %d characters is too long (at most %d)", len(lit), maxNumberChars), true
			}
			if bytes.ContainsAny(lit, "eE") || len(lit) > 300 {
				if _, err := strconv.ParseFloat(string(lit), 64); err != nil {
					return string(clipKey(curKey)), fmt.Sprintf("%s is out of range", lit), true
				}
			}
			i = j - 1
		}
	}
	return "", "", false
}

func numByte(b byte) bool {
	return (b >= '0' && b <= '9') || b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E'
}

func clipKey(k []byte) []byte {
	if len(k) > maxNumberChars {
		return append(append([]byte(nil), k[:maxNumberChars]...), "…"...)
	}
	return k
}

// numbers answers a JSON-RPC request carrying an unrepresentable number
// before mcp-go parses it (on MCP endpoints, after the session gate): a
// tools/call gets a tool error naming the argument (the caller can
// correct it), anything else an invalid-params error. Neither echoes the
// literal. The request is not executed.
func (g *guard) numbers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, ok := r.Body.(*bodyReader)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		key, problem, bad := badNumber(body.b)
		if !bad {
			next.ServeHTTP(w, r)
			return
		}
		var env struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body.b, &env)
		g.log.Warn("mcp: refused an unrepresentable number", "method", env.Method, "key", key, "problem", problem)
		refuseArgument(w, env.ID, env.Method, key, problem+"; send decimal values as strings, e.g. \"100.5\"")
	})
}

// refuseArgument answers a request whose argument key cannot be taken,
// without executing it: a tools/call gets a tool error (the caller can
// correct it), anything else an invalid-params error.
func refuseArgument(w http.ResponseWriter, id json.RawMessage, method, key, problem string) {
	if len(id) == 0 || len(id) > maxNumberChars {
		id = json.RawMessage("null")
	}
	where := "invalid arguments"
	if key != "" {
		where += fmt.Sprintf(": %q", key)
	}
	msg := where + ": " + problem
	resp := map[string]any{"jsonrpc": "2.0", "id": id}
	if method == "tools/call" {
		resp["result"] = map[string]any{"isError": true, "content": []map[string]string{{"type": "text", "text": "Error: " + msg}}}
	} else {
		resp["error"] = map[string]any{"code": -32602, "message": msg}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

// largeBody is the size from which a tools/call's string arguments are
// checked against their schema's maxLength before mcp-go parses the
// request: parsing a body costs several full passes over it, so a
// megabyte-long quantity is refused after one.
const largeBody = 64 << 10

// longArgument finds a top-level string argument of a large tools/call
// longer than the maxLength its tool's schema declares.
func longArgument(body []byte, tools []core.Tool) (id json.RawMessage, key, problem string, found bool) {
	if len(body) < largeBody {
		return nil, "", "", false
	}
	var env struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name      string                     `json:"name"`
			Arguments map[string]json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &env) != nil || env.Method != "tools/call" {
		return nil, "", "", false
	}
	var schema struct {
		Properties map[string]struct {
			MaxLength *int `json:"maxLength"`
		} `json:"properties"`
	}
	for _, t := range tools {
		if t.Name == env.Params.Name {
			_ = json.Unmarshal(t.InputSchema, &schema)
		}
	}
	for name, raw := range env.Params.Arguments {
		p, ok := schema.Properties[name]
		if !ok || p.MaxLength == nil || len(raw) < 2 || raw[0] != '"' {
			continue
		}
		// a character takes 1 to 6 bytes in a JSON string (\uXXXX):
		// only a string that may be too long is decoded to count
		if n := len(raw) - 2; n > *p.MaxLength {
			var s string
			if n <= 6**p.MaxLength {
				if json.Unmarshal(raw, &s) != nil || utf8.RuneCountInString(s) <= *p.MaxLength {
					continue
				}
				n = utf8.RuneCountInString(s)
			}
			return env.ID, name, fmt.Sprintf("a value of %d characters is too long (at most %d)", n, *p.MaxLength), true
		}
	}
	return nil, "", "", false
}

// bodyReader is the body bodyCap buffered, kept readable for the
// checks after it.
type bodyReader struct {
	*bytes.Reader
	b []byte
}

func (bodyReader) Close() error { return nil }
