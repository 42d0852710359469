package agent

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/alice-trading/alice/core"
)

// Images returned by tools are not fed back to the model as base64 (it
// would eat the context window) and are not lost either: as in OpenAlice,
// each is saved under <data>/media/ with a content-addressed name, the
// tool result text says where, and the turn's final assistant message
// carries an image block pointing at it, so the session keeps it and UIs
// can show it.

// imageSavedNote replaces an image in a tool result (OpenAlice's wording,
// plus the path).
const imageSavedNote = "[Image saved to disk — use Read tool to view the file: %s]"

// savedImageRe finds the notes toolOutput leaves in a tool result.
var savedImageRe = regexp.MustCompile(`\[Image saved to disk — use Read tool to view the file: (media/[0-9a-f]+\.[a-z]+)\]`)

// SavedImages lists the media paths noted in a tool result, so a UI can
// show the images while the turn streams.
func SavedImages(content string) []string {
	var out []string
	for _, m := range savedImageRe.FindAllStringSubmatch(content, -1) {
		out = append(out, m[1])
	}
	return out
}

// MediaDir is where tool images are kept, under the data directory.
const MediaDir = "media"

// maxImageBytes refuses absurd images (a tool bug) instead of filling the disk.
const maxImageBytes = 20 << 20

// toolOutput renders a tool's result as text, saving any image blocks and
// returning their data-relative paths ("media/<hash>.png").
func (c *Center) toolOutput(res any) (string, []string) {
	tr, ok := res.(*core.ToolResult)
	if !ok {
		return core.ResultText(res), nil
	}
	var parts, media []string
	for _, b := range tr.Content {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image":
			rel, err := saveImage(c.d.DataDir, b.MIMEType, b.Data)
			if err != nil {
				c.log.Warn("Could not save a tool image", "err", err)
				parts = append(parts, "[image not saved: "+err.Error()+"]")
				continue
			}
			parts = append(parts, fmt.Sprintf(imageSavedNote, rel))
			media = append(media, rel)
		default:
			parts = append(parts, "["+b.Type+"]")
		}
	}
	return strings.Join(parts, "\n"), media
}

// saveImage writes base64 data to <dataDir>/media/<sha256[:16]>.<ext> and
// returns "media/<name>". The same image is stored once.
func saveImage(dataDir, mime, data string) (string, error) {
	if dataDir == "" {
		return "", fmt.Errorf("no data directory")
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(data))
	if err != nil {
		return "", fmt.Errorf("image data is not base64: %w", err)
	}
	if len(raw) == 0 || len(raw) > maxImageBytes {
		return "", fmt.Errorf("image size %d bytes is out of range", len(raw))
	}
	sum := sha256.Sum256(raw)
	name := hex.EncodeToString(sum[:8]) + imageExt(mime)
	dir := filepath.Join(dataDir, MediaDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, name)
	if _, err := os.Stat(path); err == nil {
		return MediaDir + "/" + name, nil
	}
	tmp, err := os.CreateTemp(dir, ".img-*")
	if err != nil {
		return "", err
	}
	if _, err := tmp.Write(raw); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return MediaDir + "/" + name, nil
}

func imageExt(mime string) string {
	switch strings.ToLower(mime) {
	case "image/png":
		return ".png"
	case "image/jpeg", "image/jpg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "image/svg+xml":
		return ".svg"
	}
	return ".img"
}
