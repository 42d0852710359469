package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/invopop/jsonschema"
)

// SchemaKey is the key editors read to find a file's JSON Schema. Load
// accepts it in every file (and ignores it); Save writes it into every
// file that is an object. accounts.json is a list (OpenAlice's format),
// which cannot carry it: editors associate it through their settings
// (README), its schema is written beside it all the same.
const SchemaKey = "$schema"

// schemaFiles pairs every config file with its Go type (via its defaults).
// A test fails when CheckAll creates a file missing from this table.
func schemaFiles() map[string]any {
	return map[string]any{
		AIProviderFile: DefaultAIProvider(),
		MCPFile:        DefaultMCP(),
		ConnectorsFile: DefaultConnectors(),
		WebhookFile:    DefaultWebhook(),
		AccountsFile:   DefaultAccounts(),
		SnapshotFile:   DefaultSnapshot(),
		MarketDataFile: DefaultMarketData(),
		AgentFile:      DefaultAgent(),
		ToolsFile:      DefaultTools(),
		CompactionFile: DefaultCompaction(),
		HeartbeatFile:  DefaultHeartbeat(),
		NewsFile:       DefaultNews(),
		ResearchFile:   DefaultResearch(),
		WorkspacesFile: DefaultWorkspaces(),
		AttachFile:     DefaultAttach(),
		ChannelsFile:   DefaultChannels(),
	}
}

// SchemaFileName is where the schema of a config file lives: beside it,
// e.g. mcp.json → mcp.schema.json.
func SchemaFileName(name string) string {
	return strings.TrimSuffix(name, ".json") + ".schema.json"
}

// schemaRef is the $schema value written into a config file.
func schemaRef(name string) string { return "./" + SchemaFileName(name) }

// SchemaFor generates the JSON Schema of a config file from its Go type:
// unknown keys are refused (as Load does), nothing is required (omitted
// keys keep their defaults) and the defaults are shown to editors.
func SchemaFor(name string) ([]byte, error) {
	def, ok := schemaFiles()[name]
	if !ok {
		return nil, fmt.Errorf("no schema for %s", name)
	}
	r := &jsonschema.Reflector{
		ExpandedStruct:             true,
		RequiredFromJSONSchemaTags: true,
		DoNotReference:             true,
	}
	s := r.Reflect(def)
	allowNulls(s, reflect.TypeOf(def))
	s.ID = jsonschema.ID("https://github.com/alice-trading/alice/config/" + SchemaFileName(name))
	s.Title = "alice " + name
	if s.Properties != nil {
		s.Properties.Set(SchemaKey, &jsonschema.Schema{Type: "string", Description: "JSON Schema of this file (for editors); ignored by alice"})
	}
	addDefaults(s, def)
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// allowNulls lets pointer fields be null, as encoding/json accepts (and
// writes) them; the reflector alone would demand the pointee.
func allowNulls(s *jsonschema.Schema, t reflect.Type) {
	if s == nil {
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		allowNulls(s.Items, t.Elem())
	case reflect.Map:
		allowNulls(s.AdditionalProperties, t.Elem())
	case reflect.Struct:
		if s.Properties == nil {
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name := strings.Split(f.Tag.Get("json"), ",")[0]
			if name == "" {
				name = f.Name
			}
			p, ok := s.Properties.Get(name)
			if !ok || p == nil {
				if f.Anonymous {
					allowNulls(s, f.Type)
				}
				continue
			}
			allowNulls(p, f.Type)
			if f.Type.Kind() == reflect.Pointer || f.Type.Kind() == reflect.Slice || f.Type.Kind() == reflect.Map {
				inner := *p
				*p = jsonschema.Schema{AnyOf: []*jsonschema.Schema{&inner, {Type: "null"}}, Description: inner.Description}
				inner.Description = ""
			}
		}
	}
}

// addDefaults copies the top-level default values into the schema so an
// editor can show them while completing.
func addDefaults(s *jsonschema.Schema, def any) {
	if s.Properties == nil {
		return
	}
	b, err := json.Marshal(def)
	if err != nil {
		return
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return
	}
	for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
		if v, ok := m[pair.Key]; ok && v != nil && !isZero(v) {
			pair.Value.Default = v
		}
	}
}

func isZero(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return reflect.ValueOf(v).IsZero()
}

// WriteSchemas writes every config file's schema beside it, rewriting a
// schema only when it changed (so editors watching the folder stay calm).
func (s *Store) WriteSchemas() error {
	for name := range schemaFiles() {
		b, err := SchemaFor(name)
		if err != nil {
			return err
		}
		path := s.Path(SchemaFileName(name))
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
			continue
		}
		if err := WriteFileAtomic(path, b, 0o644); err != nil {
			return &Error{File: path, Msg: err.Error()}
		}
	}
	return nil
}

// withSchemaKey returns the encoded object with "$schema" as its first
// key (replacing any there).
func withSchemaKey(name string, data []byte) []byte {
	data = stripSchemaKey(data)
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return data
	}
	ref, _ := json.Marshal(schemaRef(name))
	rest := bytes.TrimLeft(t[1:], " \t\r\n")
	sep := ",\n  "
	if len(rest) > 0 && rest[0] == '}' {
		sep = "\n"
	}
	return append([]byte("{\n  \""+SchemaKey+"\": "+string(ref)+sep), rest...)
}

// stripSchemaKey removes a top-level "$schema" key so strict decoding
// (unknown keys are errors) accepts files that carry one. Anything that
// is not a JSON object is returned unchanged for the decoder to report.
func stripSchemaKey(data []byte) []byte {
	if !bytes.Contains(data, []byte(`"`+SchemaKey+`"`)) {
		return data
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return data
	}
	if _, ok := m[SchemaKey]; !ok {
		return data
	}
	// Re-encode without the key, keeping the other keys' order.
	dec := json.NewDecoder(bytes.NewReader(data))
	var out bytes.Buffer
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return data
	}
	out.WriteString("{")
	first := true
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return data
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return data
		}
		k, _ := kt.(string)
		if k == SchemaKey {
			continue
		}
		if !first {
			out.WriteString(",")
		}
		first = false
		kb, _ := json.Marshal(k)
		out.Write(kb)
		out.WriteString(":")
		out.Write(raw)
	}
	out.WriteString("}")
	return out.Bytes()
}

// AddSchemaKeys puts "$schema" into every existing config file that lacks
// it (contents otherwise untouched), for `alice config schema`.
func (s *Store) AddSchemaKeys() ([]string, error) {
	var changed []string
	for name := range schemaFiles() {
		path := s.Path(name)
		data, err := os.ReadFile(path)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return changed, &Error{File: path, Msg: err.Error()}
		}
		if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
			continue // a top-level list (accounts.json) cannot carry $schema
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) != nil {
			return changed, &Error{File: path, Msg: "not valid JSON; fix it first (alice check)"}
		}
		if _, ok := m[SchemaKey]; ok {
			continue
		}
		if err := WriteFileAtomic(path, withSchemaKey(name, data), 0o600); err != nil {
			return changed, &Error{File: path, Msg: err.Error()}
		}
		changed = append(changed, path)
	}
	return changed, nil
}

// Files lists every config file name, sorted.
func Files() []string {
	out := make([]string, 0, len(schemaFiles()))
	for name := range schemaFiles() {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
