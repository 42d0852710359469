package config

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// Two in-process editors (the TUI's Settings pane and Telegram /settings
// share one Store) writing different keys of the same file with base ""
// must both land: Edit is read-modify-write, so without serialisation
// the later write silently drops the earlier one.
func TestEditConcurrentEditorsLoseNothing(t *testing.T) {
	s := NewStore(t.TempDir())
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := Edit(s, ToolsFile, "", DefaultTools, func(tl *Tools) error {
				tl.Disabled = append(tl.Disabled, fmt.Sprintf("tool%02d", i))
				return nil
			})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := Load(s, ToolsFile, DefaultTools)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if name := fmt.Sprintf("tool%02d", i); !slices.Contains(got.Disabled, name) {
			t.Errorf("edit %s was lost; file holds %d of %d: %v", name, len(got.Disabled), n, got.Disabled)
			break
		}
	}
}
