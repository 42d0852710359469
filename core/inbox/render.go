package inbox

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/alice-trading/alice/core/mdterm"
)

// Errors a DocReader returns so the renderer can show the right tombstone.
// A missing file is any error matching fs.ErrNotExist.
var (
	ErrWorkspaceGone = errors.New("workspace no longer exists")
	ErrDocPath       = errors.New("invalid document path")
)

// DocTooLargeError reports a document over the reader's size limit.
type DocTooLargeError struct{ Size int64 }

func (e *DocTooLargeError) Error() string {
	return fmt.Sprintf("file too large (%d bytes)", e.Size)
}

// DocReader reads a file from a workspace at view time. The workspace
// package provides one (workspace.Manager.DocReader).
type DocReader interface {
	ReadDoc(wsID, relPath string) ([]byte, error)
}

// Tombstone texts shown instead of a document that cannot be rendered.
const (
	TombstoneWorkspace = "Workspace no longer exists. The entry is kept, but its documents are gone."
	TombstoneNotFound  = "File not found at this path. It may have been moved or deleted."
	TombstoneInvalid   = "Invalid path."
	tombstoneTooLarge  = "File too large to render in inbox (%d KB). Open the workspace to read it."
)

// RenderedDoc is one document of an entry, ready to draw.
type RenderedDoc struct {
	Path string
	// Body is the rendered content (ANSI-styled for markdown); empty when
	// Tombstone is set.
	Body string
	// Tombstone explains why the document could not be shown.
	Tombstone string
}

// RenderDocs reads and renders every doc of e now (docs are live pointers,
// never snapshots). width is the wrap width in cells.
func RenderDocs(e Entry, r DocReader, width int) []RenderedDoc {
	out := make([]RenderedDoc, 0, len(e.Docs))
	for _, d := range e.Docs {
		out = append(out, renderDoc(e.WorkspaceID, d.Path, r, width))
	}
	return out
}

func renderDoc(wsID, p string, r DocReader, width int) RenderedDoc {
	rd := RenderedDoc{Path: p}
	if CheckDocPath(p) != nil {
		rd.Tombstone = TombstoneInvalid
		return rd
	}
	data, err := r.ReadDoc(wsID, p)
	var tooLarge *DocTooLargeError
	switch {
	case err == nil:
	case errors.Is(err, ErrWorkspaceGone):
		rd.Tombstone = TombstoneWorkspace
	case errors.Is(err, fs.ErrNotExist):
		rd.Tombstone = TombstoneNotFound
	case errors.As(err, &tooLarge):
		rd.Tombstone = fmt.Sprintf(tombstoneTooLarge, (tooLarge.Size+1023)/1024)
	case errors.Is(err, ErrDocPath):
		rd.Tombstone = TombstoneInvalid
	default:
		rd.Tombstone = "Could not read file: " + err.Error()
	}
	if rd.Tombstone != "" {
		return rd
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown":
		rd.Body = RenderMarkdown(string(data), width)
	default:
		rd.Body = strings.ToValidUTF8(string(data), "\uFFFD")
	}
	return rd
}

// RenderMarkdown renders markdown for a dark terminal (core/mdterm).
func RenderMarkdown(md string, width int) string {
	return mdterm.Render(md, mdterm.Options{Width: width})
}
