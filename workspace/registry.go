package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
)

// Workspace is one registry entry: a per-task directory holding a git
// repository, plus the agents offered for it (first = default).
type Workspace struct {
	ID        string    `json:"id"`
	Tag       string    `json:"tag"`
	Label     string    `json:"label,omitempty"`
	Dir       string    `json:"dir"`
	Template  string    `json:"template,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	Agents    []Agent   `json:"agents"`
	// Archived workspaces keep their directory but run no sessions.
	Archived bool `json:"archived,omitempty"`
}

// DisplayName is the label, falling back to the tag.
func (w Workspace) DisplayName() string {
	if w.Label != "" {
		return w.Label
	}
	return w.Tag
}

// ValidateTag checks a tag's syntax (uniqueness is checked by Create).
func ValidateTag(tag string) error {
	return core.ValidateWorkspaceTag(tag)
}

type registryFile struct {
	Version    int         `json:"version"`
	Workspaces []Workspace `json:"workspaces"`
}

func loadRegistry(path string) ([]Workspace, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f registryFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Version != 1 {
		return nil, fmt.Errorf("%s: unsupported version %d", path, f.Version)
	}
	return f.Workspaces, nil
}

func saveRegistry(path string, ws []Workspace) error {
	if ws == nil {
		ws = []Workspace{}
	}
	b, err := json.MarshalIndent(registryFile{Version: 1, Workspaces: ws}, "", "  ")
	if err != nil {
		return err
	}
	return config.WriteFileAtomic(path, append(b, '\n'), 0o600)
}

// RecordState is the persisted state of a session record.
type RecordState string

// Record states: a record left "running" by a crash of alice is flipped to
// "paused" at the next start.
const (
	RecordRunning RecordState = "running"
	RecordPaused  RecordState = "paused"
)

// SessionRecord persists a session so it can be resumed after alice
// restarts.
type SessionRecord struct {
	ID             string      `json:"id"`
	WsID           string      `json:"wsId"`
	Agent          Agent       `json:"agent"`
	Name           string      `json:"name"`
	CreatedAt      time.Time   `json:"createdAt"`
	LastActiveAt   time.Time   `json:"lastActiveAt"`
	State          RecordState `json:"state"`
	ResumeHint     *ResumeHint `json:"resumeHint,omitempty"`
	ScrollbackFile string      `json:"scrollbackFile,omitempty"`
	// StartCommit is HEAD when the session started: the diff base.
	StartCommit string `json:"startCommit,omitempty"`
}

type recordsFile struct {
	Version int             `json:"version"`
	Records []SessionRecord `json:"records"`
}

func loadRecords(path string) ([]SessionRecord, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f recordsFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f.Records, nil
}

func saveRecords(path string, recs []SessionRecord) error {
	if recs == nil {
		recs = []SessionRecord{}
	}
	b, err := json.MarshalIndent(recordsFile{Version: 1, Records: recs}, "", "  ")
	if err != nil {
		return err
	}
	return config.WriteFileAtomic(path, append(b, '\n'), 0o600)
}
