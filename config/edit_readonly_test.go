package config

import "testing"

// A read-only store (alice check) never writes, through Edit as through
// Save.
func TestEditRefusesOnReadOnlyStore(t *testing.T) {
	dir := t.TempDir()
	ro := NewReadOnlyStore(dir)
	_, _, err := Edit(ro, ToolsFile, "", DefaultTools, func(tl *Tools) error {
		tl.Disabled = append(tl.Disabled, "x")
		return nil
	})
	if err == nil {
		t.Fatal("Edit on a read-only store succeeded")
	}
	if v, _ := NewStore(dir).FileVersion(ToolsFile); v != "" {
		t.Fatalf("read-only Edit wrote %s", ToolsFile)
	}
}
