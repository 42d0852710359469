package agent

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/session"
)

// pngBytes is a 1×1 PNG.
var pngBytes, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")

// A tool that returns an image: the model gets a note instead of base64,
// the image is saved once under media/, and the final assistant message
// carries it so the session (and the chat) keep it.
func TestToolImagesAreSavedWithTheSession(t *testing.T) {
	calls := 0
	srv := newScriptedOpenAI(t, func(map[string]any) turn {
		if calls++; calls <= 2 {
			return turn{tool: "chart", args: `{}`}
		}
		return turn{text: "Here is the chart."}
	})
	f := newFixture(t, srv.profile())
	f.center.d.Tools.Register(core.Tool{Name: "chart", Description: "draws", InputSchema: core.Schema(`{"type":"object","properties":{}}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			return &core.ToolResult{Content: []core.ContentBlock{{Type: "text", Text: "AAPL 1d"},
				{Type: "image", MIMEType: "image/png", Data: base64.StdEncoding.EncodeToString(pngBytes)}}}, nil
		}})
	res, err := ask(t, f.center, "img", "draw AAPL", Options{})
	require.NoError(t, err)
	require.Equal(t, "Here is the chart.", res.Text)

	entries, err := f.sessions.Read("img")
	require.NoError(t, err)
	result := entries[2].Message.Content.Blocks[0]
	require.Equal(t, "tool_result", result.Type)
	require.Contains(t, result.Content, "AAPL 1d")
	require.Contains(t, result.Content, "[Image saved to disk — use Read tool to view the file: media/")
	require.NotContains(t, result.Content, base64.StdEncoding.EncodeToString(pngBytes)[:20], "no base64 reaches the model")
	require.Len(t, SavedImages(result.Content), 1, "UIs find the saved image in the result")

	final := entries[len(entries)-1].Message.Content.Blocks
	require.Equal(t, "text", final[0].Type)
	require.Len(t, final, 3, "text plus both images of the turn")
	require.Equal(t, "image", final[1].Type)
	require.Equal(t, final[1].URL, final[2].URL, "the same image is stored once (content-addressed)")
	saved, err := os.ReadFile(filepath.Join(f.dir, filepath.FromSlash(final[1].URL)))
	require.NoError(t, err)
	require.Equal(t, pngBytes, saved)
	matches, _ := filepath.Glob(filepath.Join(f.dir, MediaDir, "*"))
	require.Len(t, matches, 1)
	require.True(t, strings.HasSuffix(matches[0], ".png"))

	items := session.ToChatItems(entries)
	last := items[len(items)-1]
	require.Equal(t, "image", last.Kind)
	require.Equal(t, final[1].URL, last.Text)
	require.Contains(t, session.ToTextHistory(entries[len(entries)-1:], true)[0].Text, "[Image]")
}

func TestBadToolImagesAreReportedNotSaved(t *testing.T) {
	_, err := saveImage(t.TempDir(), "image/png", "%%% not base64")
	require.ErrorContains(t, err, "not base64")
	_, err = saveImage(t.TempDir(), "image/png", "")
	require.ErrorContains(t, err, "out of range")
	_, err = saveImage("", "image/png", base64.StdEncoding.EncodeToString(pngBytes))
	require.ErrorContains(t, err, "no data directory")
}
