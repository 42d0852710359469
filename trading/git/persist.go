package git

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/alice-trading/alice/config"
)

// Persistence: commit.json holds the history, staging.json the work in
// progress, commit.json.push a running push's checkpoint. Every write is
// atomic (temp file + rename).

func (g *Git) progressPath() string { return g.path + ".push" }

func (g *Git) workPath() string { return filepath.Join(filepath.Dir(g.path), "staging.json") }

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("git: corrupt %s: %w", path, err)
	}
	return nil
}

func (g *Git) hasCommit(hash string) bool {
	for i := len(g.f.Commits) - 1; i >= 0; i-- {
		if g.f.Commits[i].Hash == hash {
			return true
		}
	}
	return false
}

// saveProgress checkpoints the running push.
func (g *Git) saveProgress() error {
	if g.path == "" {
		return nil
	}
	data, err := json.Marshal(g.pushing)
	if err != nil {
		return err
	}
	return g.write("push-checkpoint", func() error { return config.WriteFileAtomic(g.progressPath(), data, 0o600) })
}

// write performs one persistence step between the fault injector's two
// calls (tests crash the process there; production has no injector).
func (g *Git) write(point string, fn func() error) error {
	if g.deps.crash != nil {
		g.deps.crash(point, false)
	}
	if err := fn(); err != nil {
		return err
	}
	if g.deps.crash != nil {
		g.deps.crash(point, true)
	}
	return nil
}

func (g *Git) clearProgress() {
	if g.path == "" {
		return
	}
	err := g.write("push-clear", func() error {
		if err := os.Remove(g.progressPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	})
	if err != nil {
		g.deps.Logger.Warn("trading git: remove push checkpoint", "err", err)
	}
}

// save writes the history, then the work file. A crash in between leaves
// a pending commit whose hash is already in the history, which Open drops.
func (g *Git) save() error {
	if err := g.saveHistory(); err != nil {
		return err
	}
	return g.saveWork()
}

func (g *Git) saveHistory() error {
	if g.path == "" {
		return nil
	}
	if g.f.Commits == nil {
		g.f.Commits = []Commit{}
	}
	data, err := json.MarshalIndent(&g.f.history, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(g.path), 0o700); err != nil {
		return err
	}
	return g.write("history", func() error { return config.WriteFileAtomic(g.path, data, 0o600) })
}

func (g *Git) saveWork() error {
	if g.path == "" {
		return nil
	}
	data, err := json.Marshal(&g.f.work)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(g.path), 0o700); err != nil {
		return err
	}
	return g.write("staging", func() error { return config.WriteFileAtomic(g.workPath(), data, 0o600) })
}
