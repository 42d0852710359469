package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

// domainCheck stands in for app.Validate's domain half: accounts.json may
// not name a preset other than "simulator" (the real check is tested in app).
func domainCheck(s *config.Store) error {
	if err := s.CheckAll(); err != nil {
		return err
	}
	accts, err := s.Accounts()
	if err != nil {
		return err
	}
	var errs []error
	for i, a := range accts {
		if a.Preset != "simulator" {
			errs = append(errs, &config.Error{File: s.Path(config.AccountsFile), Key: "[" + string(rune('0'+i)) + "].presetId", Msg: "unknown preset " + a.Preset})
		}
	}
	return errors.Join(errs...)
}

type recorder struct {
	mu    sync.Mutex
	files []string
}

func (r *recorder) changed(f string) { r.mu.Lock(); r.files = append(r.files, f); r.mu.Unlock() }
func (r *recorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.files...)
}

func newService(t *testing.T, files map[string]string) (*Service, *recorder, string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600))
	}
	rec := &recorder{}
	return New(config.NewStore(dir), Options{Check: domainCheck, Changed: rec.changed,
		MainURL: func() string { return "http://127.0.0.1:4100/mcp" }}), rec, dir
}

func TestFileName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want, err string }{
		{"mcp", "mcp.json", ""},
		{"mcp.json", "mcp.json", ""},
		{" heartbeat ", "heartbeat.json", ""},
		{"../mcp", "", "unknown config file"},
		{"/etc/passwd", "", "unknown config file"},
		{"nope", "", "one of: accounts.json"},
	} {
		got, err := FileName(tc.in)
		if tc.err != "" {
			require.Error(t, err, tc.in)
			assert.Contains(t, err.Error(), tc.err)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got)
	}
}

// TestWriteValidatesTheWholeConfig: a raw write is checked by the same
// function as Validate with the draft in place; a refused draft changes
// nothing on disk and names the real file and key.
func TestWriteValidatesTheWholeConfig(t *testing.T) {
	t.Parallel()
	orig := `[{"id":"a","presetId":"simulator","enabled":true}]`
	svc, rec, dir := newService(t, map[string]string{config.AccountsFile: orig})
	_, base, err := svc.Read(config.AccountsFile)
	require.NoError(t, err)
	require.NotEmpty(t, base)

	for _, tc := range []struct {
		name, body, want string
	}{
		{"domain check", `[{"id":"a","presetId":"alpacca"}]`, `key "[0].presetId": unknown preset alpacca`},
		{"wrong type", `[{"id":"a","presetId":"simulator","guards":"none"}]`, `guards`},
		{"not JSON", `[{`, "unexpected EOF"},
	} {
		_, err := svc.Write(config.AccountsFile, base, []byte(tc.body))
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
		assert.Contains(t, err.Error(), filepath.Join(dir, config.AccountsFile), "%s: names the real file, not the draft folder", tc.name)
		b, _ := os.ReadFile(filepath.Join(dir, config.AccountsFile))
		assert.Equal(t, orig, string(b), tc.name)
	}
	assert.Empty(t, rec.list(), "refused writes announce nothing")

	v, err := svc.Write(config.AccountsFile, base, []byte(`[{"id":"b","presetId":"simulator"}]`))
	require.NoError(t, err)
	assert.NotEqual(t, base, v)
	assert.Equal(t, []string{config.AccountsFile}, rec.list())

	_, err = svc.Write(config.AccountsFile, base, []byte(`[]`))
	require.ErrorIs(t, err, config.ErrConflict, "written from a stale version")
	b, _ := os.ReadFile(filepath.Join(dir, config.AccountsFile))
	assert.Equal(t, `[{"id":"b","presetId":"simulator"}]`, string(b))
}

// TestDraftIgnoresBrokenNeighbours: fixing one file is possible while
// another is broken; Validate still reports the other.
func TestDraftIgnoresBrokenNeighbours(t *testing.T) {
	t.Parallel()
	svc, _, _ := newService(t, map[string]string{config.MCPFile: `{"port":"x"}`, config.HeartbeatFile: `{"every":"soon"}`})
	require.NoError(t, svc.ValidateDraft(config.MCPFile, []byte(`{"port":4000}`)))
	_, err := svc.Write(config.MCPFile, "", []byte(`{"port":4000}`))
	require.NoError(t, err)
	err = svc.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "heartbeat.json")
	assert.NotContains(t, err.Error(), "mcp.json")
}

func TestShowMasksSecrets(t *testing.T) {
	t.Parallel()
	svc, _, _ := newService(t, map[string]string{
		config.MCPFile:        `{"port":3001,"token":"s3cret"}`,
		config.ConnectorsFile: `{"telegram":{"botToken":"1:abc","chatIds":[1]},"mcpAsk":{"token":""}}`,
		config.NewsFile:       `{"enabled":`,
	})
	for _, tc := range []struct {
		file     string
		exists   bool
		contains []string
		absent   string
		bad      bool
	}{
		{config.MCPFile, true, []string{`"token": "` + Masked + `"`, `"port": 3001`}, "s3cret", false},
		{config.ConnectorsFile, true, []string{`"botToken": "` + Masked + `"`, `"token": ""`}, "1:abc", false},
		{config.NewsFile, true, nil, "", true},
		{config.HeartbeatFile, false, nil, "", false},
	} {
		s, err := svc.Show(tc.file)
		require.NoError(t, err)
		assert.Equal(t, tc.exists, s.Exists, tc.file)
		assert.Equal(t, tc.bad, s.Err != nil, tc.file)
		for _, c := range tc.contains {
			assert.Contains(t, string(s.JSON), c, tc.file)
		}
		if tc.absent != "" {
			assert.NotContains(t, string(s.JSON), tc.absent, tc.file)
		}
	}
	_, err := svc.Show("../../etc/passwd")
	require.Error(t, err)
}

func TestFilesAndSchemas(t *testing.T) {
	t.Parallel()
	svc, _, dir := newService(t, map[string]string{config.MCPFile: `{"port":0}`})
	files := svc.Files()
	require.Len(t, files, len(config.Files()))
	for _, f := range files {
		assert.Equal(t, f.Name == config.MCPFile, f.Exists, f.Name)
		assert.Equal(t, filepath.Join(dir, f.Name), f.Path)
	}
	changed, err := svc.WriteSchemas()
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, config.MCPFile)}, changed)
	assert.FileExists(t, filepath.Join(dir, "mcp.schema.json"))
	b, _ := os.ReadFile(filepath.Join(dir, config.MCPFile))
	assert.True(t, strings.HasPrefix(string(b), "{\n  \"$schema\""))
	require.NoError(t, svc.Validate(), "a file with $schema still validates")
}
