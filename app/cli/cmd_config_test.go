package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

func TestConfigPathShowSchema(t *testing.T) {
	home := t.TempDir()
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"config", "path", "--home", home}, &out, &errb), errb.String())
	assert.Contains(t, out.String(), filepath.Join(home, "config"))
	assert.Contains(t, out.String(), filepath.Join(home, "data", "logs", "alice.log"))

	out.Reset()
	require.Equal(t, 0, run([]string{"config", "path", "mcp", "--home", home}, &out, &errb))
	assert.Equal(t, filepath.Join(home, "config", "mcp.json")+"\n", out.String())

	errb.Reset()
	require.Equal(t, 1, run([]string{"config", "path", "../../etc/passwd", "--home", home}, &out, &errb))
	assert.Contains(t, errb.String(), "unknown config file")

	out.Reset()
	require.Equal(t, 0, run([]string{"config", "show", "--home", home}, &out, &errb))
	assert.Contains(t, out.String(), "mcp.json (missing: defaults apply)")

	require.Equal(t, 0, run([]string{"check", "--home", home}, &out, &errb), errb.String())
	cfg := filepath.Join(home, "config")
	require.NoError(t, os.MkdirAll(cfg, 0o700)) // check is read-only: it creates nothing
	require.NoError(t, os.WriteFile(filepath.Join(cfg, "mcp.json"), []byte(`{"port":3001,"token":"hunter2-secret"}`), 0o600))
	out.Reset()
	require.Equal(t, 0, run([]string{"config", "show", "mcp", "--home", home}, &out, &errb))
	assert.NotContains(t, out.String(), "hunter2")
	assert.Contains(t, out.String(), `"token": "••••••"`)
	assert.Contains(t, out.String(), `"port": 3001`)

	out.Reset()
	require.Equal(t, 0, run([]string{"config", "schema", "--home", home}, &out, &errb), errb.String())
	assert.Contains(t, out.String(), "added $schema to "+filepath.Join(cfg, "mcp.json"))
	assert.FileExists(t, filepath.Join(cfg, "mcp.schema.json"))
	b, _ := os.ReadFile(filepath.Join(cfg, "mcp.json"))
	assert.True(t, strings.HasPrefix(string(b), "{\n  \"$schema\": \"./mcp.schema.json\""))
	require.Equal(t, 0, run([]string{"check", "--home", home}, &out, &errb), "a file with $schema passes check: %s", errb.String())
}

// TestConfigEditValidates runs `config edit` with a scripted "editor".
func TestConfigEditValidates(t *testing.T) {
	home := t.TempDir()
	var out, errb bytes.Buffer
	script := filepath.Join(t.TempDir(), "ed.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nprintf '{\"port\":\"x\"}' > \"$1\"\n"), 0o700))
	t.Setenv("VISUAL", script)
	t.Setenv("TMPDIR", t.TempDir()) // kept drafts go here
	require.Equal(t, 1, run([]string{"config", "edit", "mcp", "--home", home}, &out, &errb))
	assert.Contains(t, errb.String(), `"port"`)
	assert.Contains(t, errb.String(), "alice config edit mcp")
	// The refused edit never reached the file, and is kept for the user.
	paths, err := config.ResolvePaths(home)
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(paths.Config, "mcp.json"))
	require.NoError(t, err)
	assert.NotContains(t, string(b), `"x"`)
	m := regexp.MustCompile(`your edit is kept in (\S+)`).FindStringSubmatch(errb.String())
	require.Len(t, m, 2, errb.String())
	kept, err := os.ReadFile(m[1])
	require.NoError(t, err)
	assert.Equal(t, `{"port":"x"}`, string(kept))

	// A draft the domain check refuses (an unknown broker preset) is
	// refused exactly as `alice check` would refuse the file.
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nprintf '[{\"id\":\"a\",\"presetId\":\"alpacca\",\"enabled\":true,\"guards\":[]}]' > \"$1\"\n"), 0o700))
	errb.Reset()
	require.Equal(t, 1, run([]string{"config", "edit", "accounts", "--home", home}, &out, &errb))
	assert.Contains(t, errb.String(), `unknown preset "alpacca"`)

	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nprintf '{\"port\":4002}' > \"$1\"\n"), 0o700))
	out.Reset()
	require.Equal(t, 0, run([]string{"config", "edit", "mcp", "--home", home}, &out, &errb))
	assert.Contains(t, out.String(), "is valid")
}
