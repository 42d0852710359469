package config

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func compileSchema(t *testing.T, dir, name string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	path := filepath.Join(dir, SchemaFileName(name))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	require.NoError(t, err)
	require.NoError(t, c.AddResource(path, doc))
	s, err := c.Compile(path)
	require.NoError(t, err, name)
	return s
}

func readJSON(t *testing.T, path string) any {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	require.NoError(t, err)
	return v
}

// TestEveryConfigFileHasAValidatingSchema: every file start-up creates
// has a schema beside it, carries "$schema", loads again, and validates.
func TestEveryConfigFileHasAValidatingSchema(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(dir)
	require.NoError(t, s.CheckAll())
	require.NoError(t, s.WriteSchemas())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	n := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".schema.json") {
			continue
		}
		n++
		_, known := schemaFiles()[name]
		require.True(t, known, "%s is created by CheckAll but has no schema: add it to schemaFiles", name)
		data, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		if data[0] == '{' {
			require.True(t, bytes.HasPrefix(data, []byte("{\n  \"$schema\": \"./"+SchemaFileName(name)+"\"")), "%s starts with $schema:\n%s", name, data)
		}
		sch := compileSchema(t, dir, name)
		require.NoError(t, sch.Validate(readJSON(t, filepath.Join(dir, name))), name)
	}
	assert.Equal(t, len(schemaFiles()), n)
	require.NoError(t, s.CheckAll(), "files with $schema load")
}

func TestSchemaRejectsWhatLoadRejects(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(dir)
	require.NoError(t, s.WriteSchemas())
	sch := compileSchema(t, dir, MCPFile)
	tests := []struct {
		doc string
		ok  bool
	}{
		{`{"$schema":"./mcp.schema.json","port":3001}`, true},
		{`{"port":"3001"}`, false},
		{`{"prot":3001}`, false},
		{`{"allowedOrigins":["http://x"],"sessionIdleMinutes":5}`, true},
	}
	for _, tc := range tests {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.doc))
		require.NoError(t, err)
		err = sch.Validate(v)
		if tc.ok {
			assert.NoError(t, err, tc.doc)
		} else {
			assert.Error(t, err, tc.doc)
		}
		require.NoError(t, os.WriteFile(s.Path(MCPFile), []byte(tc.doc), 0o600))
		_, lerr := s.MCP()
		assert.Equal(t, tc.ok, lerr == nil, "Load agrees with the schema on %s (%v)", tc.doc, lerr)
	}
}

func TestAddSchemaKeysKeepsContent(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(dir)
	user := []byte("{\"port\": 4001,\n \"host\": \"127.0.0.1\"}\n")
	require.NoError(t, os.WriteFile(s.Path(MCPFile), user, 0o600))
	require.NoError(t, os.WriteFile(s.Path(ToolsFile), []byte(`{}`), 0o600))
	changed, err := s.AddSchemaKeys()
	require.NoError(t, err)
	assert.Len(t, changed, 2)
	got, err := os.ReadFile(s.Path(MCPFile))
	require.NoError(t, err)
	assert.Equal(t, "{\n  \"$schema\": \"./mcp.schema.json\",\n  \"port\": 4001,\n \"host\": \"127.0.0.1\"}\n", string(got))
	m, err := s.MCP()
	require.NoError(t, err)
	assert.Equal(t, 4001, m.Port)
	var tools map[string]any
	b, _ := os.ReadFile(s.Path(ToolsFile))
	require.NoError(t, json.Unmarshal(b, &tools))
	assert.Equal(t, map[string]any{"$schema": "./tools.schema.json"}, tools)
	changed, err = s.AddSchemaKeys()
	require.NoError(t, err)
	assert.Empty(t, changed, "idempotent")

	require.NoError(t, os.WriteFile(s.Path(AccountsFile), []byte(`[]`), 0o600))
	changed, err = s.AddSchemaKeys()
	require.NoError(t, err)
	assert.Empty(t, changed, "a list is left alone")
	require.NoError(t, os.WriteFile(s.Path(AgentFile), []byte(`{"x":`), 0o600))
	_, err = s.AddSchemaKeys()
	require.ErrorContains(t, err, AgentFile)
}
