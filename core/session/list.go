package session

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Info describes one session file.
type Info struct {
	ID           string    `json:"id"`
	SizeBytes    int64     `json:"sizeBytes"`
	LastModified time.Time `json:"lastModified"`
}

// ListOptions selects a page of sessions, newest first.
type ListOptions struct {
	// Limit caps the page (0: no limit).
	Limit int
	// Cursor is the NextCursor of the previous page ("" = first page).
	Cursor string
	// Prefix keeps only ids starting with it.
	Prefix string
}

// ListPage is one page of sessions.
type ListPage struct {
	Sessions []Info `json:"sessions"`
	// NextCursor fetches the next (older) page; empty on the last page.
	NextCursor string `json:"nextCursor,omitempty"`
}

// ErrBadCursor is returned for a cursor List did not produce.
var ErrBadCursor = fmt.Errorf("invalid sessions cursor")

// List returns every session (recursively), newest first.
func (s *Store) List() ([]Info, error) {
	p, err := s.ListPage(ListOptions{})
	return p.Sessions, err
}

// ListPage returns a page of sessions, newest first (ties by id). The
// cursor names the last session of the previous page by its time and id,
// so a session written between pages moves to the front instead of being
// listed twice or skipped in the middle.
func (s *Store) ListPage(opts ListOptions) (ListPage, error) {
	if opts.Limit < 0 {
		return ListPage{}, fmt.Errorf("limit must be ≥ 0, got %d", opts.Limit)
	}
	var after *Info
	if opts.Cursor != "" {
		c, err := parseCursor(opts.Cursor)
		if err != nil {
			return ListPage{}, err
		}
		after = &c
	}
	var all []Info
	err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		rel, _ := filepath.Rel(s.dir, p)
		id := filepath.ToSlash(strings.TrimSuffix(rel, ".jsonl"))
		if id == "notifications" || ValidateID(id) != nil || !strings.HasPrefix(id, opts.Prefix) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		all = append(all, Info{ID: id, SizeBytes: info.Size(), LastModified: info.ModTime()})
		return nil
	})
	sort.Slice(all, func(i, j int) bool { return newer(all[i], all[j]) })
	page := ListPage{Sessions: []Info{}}
	for _, in := range all {
		if after != nil && !newer(*after, in) {
			continue
		}
		if opts.Limit > 0 && len(page.Sessions) == opts.Limit {
			last := page.Sessions[len(page.Sessions)-1]
			page.NextCursor = strconv.FormatInt(last.LastModified.UnixNano(), 10) + ":" + last.ID
			break
		}
		page.Sessions = append(page.Sessions, in)
	}
	return page, err
}

// newer orders sessions newest first, then by id.
func newer(a, b Info) bool {
	if !a.LastModified.Equal(b.LastModified) {
		return a.LastModified.After(b.LastModified)
	}
	return a.ID < b.ID
}

func parseCursor(c string) (Info, error) {
	ns, id, ok := strings.Cut(c, ":")
	n, err := strconv.ParseInt(ns, 10, 64)
	if !ok || err != nil || ValidateID(id) != nil {
		return Info{}, fmt.Errorf("%w %q", ErrBadCursor, c)
	}
	return Info{ID: id, LastModified: time.Unix(0, n)}, nil
}
