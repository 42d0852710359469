package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/alice-trading/alice/core"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// adaptTool turns the single core.Tool type into an mcp-go tool with a
// fixed handler (the Ask connector's static tools).
func adaptTool(t core.Tool) server.ServerTool {
	return server.ServerTool{
		Tool: mcpgo.NewToolWithRawSchema(t.Name, t.Description, t.InputSchema),
		Handler: func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return callCoreTool(ctx, t, req), nil
		},
	}
}

// callCoreTool runs a core.Tool for an MCP call. The schema is passed
// through verbatim at listing; here numeric strings are coerced, the result
// becomes JSON text unless the handler returned *core.ToolResult (blocks
// passed natively), and a handler error becomes an isError result
// "Error: …" the caller can read and correct.
func callCoreTool(ctx context.Context, t core.Tool, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	args, err := rawArguments(req)
	if err != nil {
		return mcpgo.NewToolResultError("Error: invalid arguments: " + err.Error())
	}
	if err := core.CheckDuplicateKeys(args); err != nil { // before coercion re-encodes (and so dedupes) them
		return mcpgo.NewToolResultError("Error: " + err.Error())
	}
	res, err := t.Invoke(ctx, coerceNumbers(t.InputSchema, args))
	if err != nil {
		return mcpgo.NewToolResultError("Error: " + err.Error())
	}
	return toCallResult(res)
}

func adaptTools(tools []core.Tool) []server.ServerTool {
	out := make([]server.ServerTool, len(tools))
	for i, t := range tools {
		out[i] = adaptTool(t)
	}
	return out
}

// rawArguments prefers the original JSON bytes (no float64 round trip for
// large integers or decimal strings) and falls back to re-encoding.
func rawArguments(req mcpgo.CallToolRequest) (json.RawMessage, error) {
	if len(req.Params.RawArguments) > 0 {
		return req.Params.RawArguments, nil
	}
	if req.Params.Arguments == nil {
		return json.RawMessage("{}"), nil
	}
	b, err := json.Marshal(req.Params.Arguments)
	return b, err
}

func toCallResult(res any) *mcpgo.CallToolResult {
	tr, ok := res.(*core.ToolResult)
	if !ok {
		return mcpgo.NewToolResultText(core.ResultText(emptyLists(res)))
	}
	if tr == nil {
		return mcpgo.NewToolResultText("null")
	}
	out := &mcpgo.CallToolResult{IsError: tr.IsError, Content: make([]mcpgo.Content, 0, len(tr.Content))}
	for _, c := range tr.Content {
		switch c.Type {
		case "image":
			out.Content = append(out.Content, mcpgo.NewImageContent(c.Data, c.MIMEType))
		case "text":
			out.Content = append(out.Content, mcpgo.NewTextContent(c.Text))
		default:
			out.Content = append(out.Content, mcpgo.NewTextContent("["+c.Type+"]"))
		}
	}
	return out
}

// coerceNumbers converts string values of number/integer parameters into
// JSON numbers ("5" → 5), as the reference's zod coercion did: many MCP
// clients and models send numbers as strings. Anything else is left for the
// handler's strict decoding to reject with a clear message.
func coerceNumbers(schema, args json.RawMessage) json.RawMessage {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || trimmed[0] != '{' || !bytes.Contains(trimmed, []byte(`"`)) {
		return args
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(trimmed, &obj) != nil {
		return args
	}
	var props map[string]json.RawMessage
	changed := false
	for k, v := range obj {
		if len(v) == 0 || v[0] != '"' {
			continue
		}
		if props == nil {
			props = numericProps(schema)
			if len(props) == 0 {
				return args
			}
		}
		kind, ok := props[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			continue
		}
		if n, ok := numberLiteral(strings.TrimSpace(s), string(kind) == "integer"); ok {
			obj[k] = json.RawMessage(n)
			changed = true
		}
	}
	if !changed {
		return args
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return args
	}
	return b
}

// numericProps maps top-level property names to "number" or "integer";
// properties that also accept a string are left alone.
func numericProps(schema json.RawMessage) map[string]json.RawMessage {
	var s struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	out := map[string]json.RawMessage{}
	for name, p := range s.Properties {
		var types []string
		var one string
		if json.Unmarshal(p.Type, &one) == nil {
			types = []string{one}
		} else if json.Unmarshal(p.Type, &types) != nil {
			continue
		}
		kind := ""
		for _, t := range types {
			switch {
			case t == "string":
				kind = "-"
			case t == "number" && kind != "-":
				kind = "number"
			case t == "integer" && kind == "":
				kind = "integer"
			}
		}
		if kind == "number" || kind == "integer" {
			out[name] = json.RawMessage(kind)
		}
	}
	return out
}

// numberLiteral validates s as a JSON number (integer when asked) and
// returns its canonical literal text.
func numberLiteral(s string, integer bool) (string, bool) {
	if s == "" {
		return "", false
	}
	if integer {
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			return "", false
		}
		return s, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || strings.ContainsAny(s, "xXpP_") || strings.EqualFold(s, "nan") || strings.Contains(strings.ToLower(s), "inf") {
		return "", false
	}
	_ = f
	if !json.Valid([]byte(s)) { // e.g. "+1", ".5", "1." are not JSON
		return strconv.FormatFloat(f, 'g', -1, 64), true
	}
	return s, true
}
