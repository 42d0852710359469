package git

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/jsonl"
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

// historyPath is the append-only history (one commit per line; a later
// line with the same hash replaces the earlier one, as when a sync
// records fills on the newest commit). It lives beside the path Open was
// given (commit.json, OpenAlice's whole-file history, which is imported
// once and then left as it was).
func (g *Git) historyPath() string { return filepath.Join(filepath.Dir(g.path), "commits.jsonl") }

// saveHistory appends what changed since the last save: new commits, and
// the newest persisted commit again if it was updated in place. A push
// therefore writes one line however long the history is.
func (g *Git) saveHistory() error {
	if g.path == "" {
		return nil
	}
	if g.f.Commits == nil {
		g.f.Commits = []Commit{}
	}
	var lines [][]byte
	if n := g.persisted; n > 0 && n <= len(g.f.Commits) {
		b, err := json.Marshal(g.f.Commits[n-1])
		if err != nil {
			return err
		}
		if !bytes.Equal(b, g.lastLine) {
			lines = append(lines, b)
		}
	}
	for _, c := range g.f.Commits[min(g.persisted, len(g.f.Commits)):] {
		b, err := json.Marshal(c)
		if err != nil {
			return err
		}
		lines = append(lines, b)
	}
	if len(lines) == 0 {
		return nil
	}
	if err := g.write("history", func() error { return g.hist.Append(lines...) }); err != nil {
		return err
	}
	g.persisted, g.lastLine = len(g.f.Commits), lines[len(lines)-1]
	return nil
}

// openHistory reads commits.jsonl (healing a torn tail); when it does
// not exist yet, an existing commit.json is imported into it once.
func (g *Git) openHistory() error {
	_, statErr := os.Stat(g.historyPath())
	f, err := jsonl.Open(g.historyPath(), jsonl.Options{Sync: true})
	if err != nil {
		return err
	}
	g.hist = f
	if errors.Is(statErr, os.ErrNotExist) {
		var old history
		if err := readJSON(g.path, &old); err != nil {
			return err
		}
		g.f.history = old
		g.persisted = 0
		if len(old.Commits) > 0 {
			if err := g.saveHistory(); err != nil {
				return fmt.Errorf("git: importing %s: %w", g.path, err)
			}
			g.deps.Logger.Info("trading git: imported history", "from", g.path, "commits", len(old.Commits), "into", g.historyPath())
		}
		return nil
	}
	index := map[string]int{}
	var last []byte
	err = f.Forward(func(line []byte) bool {
		var c Commit
		if json.Unmarshal(line, &c) != nil || c.Hash == "" {
			return true // not a commit: skipped (healing keeps torn bytes aside)
		}
		if i, ok := index[c.Hash]; ok {
			g.f.Commits[i] = c
		} else {
			index[c.Hash] = len(g.f.Commits)
			g.f.Commits = append(g.f.Commits, c)
		}
		last = append(last[:0], line...)
		return true
	})
	if err != nil {
		return err
	}
	if n := len(g.f.Commits); n > 0 {
		h := g.f.Commits[n-1].Hash
		g.f.Head = &h
		// the line that would be written for the newest commit now
		if b, err := json.Marshal(g.f.Commits[n-1]); err == nil {
			last = b
		}
	}
	g.persisted, g.lastLine = len(g.f.Commits), last
	return nil
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
