package inbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/alice-trading/alice/config"
)

// ReadState remembers which inbox entries a person has seen, so the unread
// count survives a restart. It is a small JSON file next to the entries
// ({"seen":["id",…]}), written whole and atomically; the caller passes the
// complete set each time (ids of deleted entries simply drop out), so
// there is no read-modify-write to race on.
type ReadState struct{ path string }

// NewReadState uses the file at path (created on the first Save).
func NewReadState(path string) ReadState { return ReadState{path: path} }

type readFile struct {
	Seen []string `json:"seen"`
}

// Load returns the seen ids; a missing file is an empty set, a malformed
// one an error naming the file (the caller keeps working without it).
func (r ReadState) Load() (map[string]bool, error) {
	b, err := os.ReadFile(r.path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	var f readFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("inbox read state %s is not valid JSON (%v); delete it to reset the unread marks", r.path, err)
	}
	out := make(map[string]bool, len(f.Seen))
	for _, id := range f.Seen {
		out[id] = true
	}
	return out, nil
}

// Save replaces the file with exactly these ids.
func (r ReadState) Save(seen []string) error {
	ids := append([]string(nil), seen...)
	sort.Strings(ids)
	b, err := json.Marshal(readFile{Seen: ids})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(r.path), 0o700); err != nil {
		return err
	}
	return config.WriteFileAtomic(r.path, append(b, '\n'), 0o600)
}
