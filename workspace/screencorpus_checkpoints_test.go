package workspace

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Checkpoints: the screen part-way through a recording. A stream's final
// screen hides the states it went through (a spinner, a half-streamed
// answer, the screen just after a resize before the program redraws), so
// each recorded stream (every corpus stream that is not gen-*, reflow-* or
// resize-*)
// also keeps what tmux showed after corpusCheckpoints evenly spaced
// prefixes, each ending where an escape sequence starts, and, when it was
// resized, right after the resize: NAME.checkpoints holds, for each, a
// line "@ OFFSET" and the capture (as NAME.tmux). `-update` writes them
// with tmux; TestScreenCorpusCheckpoints compares the pane at each.

const corpusCheckpoints = 12

// recordedStreams are the corpus streams made from real programs.
func recordedStreams(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, path := range corpusStreams(t) {
		name := filepath.Base(path)
		if !strings.HasPrefix(name, "gen-") && !strings.HasPrefix(name, "reflow-") && !strings.HasPrefix(name, "resize-") {
			out = append(out, strings.TrimSuffix(path, ".stream"))
		}
	}
	return out
}

// readResize reads base.resize, nil when the stream was not resized.
func readResize(t *testing.T, base string) *corpusResize {
	t.Helper()
	b, err := os.ReadFile(base + ".resize")
	if err != nil {
		return nil
	}
	r := &corpusResize{}
	_, err = fmt.Sscanf(string(b), "%d %d %d %d %d", &r.offset, &r.fromCols, &r.fromRows, &r.cols, &r.rows)
	require.NoError(t, err, "%s.resize", base)
	return r
}

// checkpointOffsets are the prefixes of stream a checkpoint is taken at.
func checkpointOffsets(stream []byte, resize *corpusResize) []int {
	var out []int
	for i := 1; i <= corpusCheckpoints; i++ {
		off := len(stream) * i / (corpusCheckpoints + 1)
		if j := bytes.IndexByte(stream[off:], 0x1b); j >= 0 {
			out = append(out, off+j)
		}
	}
	if resize != nil {
		out = append(out, resize.offset)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// checkpoint is one "@ OFFSET" block of NAME.checkpoints.
type checkpoint struct {
	offset  int
	capture string
}

func parseCheckpoints(t *testing.T, text string) []checkpoint {
	t.Helper()
	var out []checkpoint
	lines := strings.SplitAfter(text, "\n")
	for i := 0; i < len(lines) && lines[i] != ""; {
		var c checkpoint
		_, err := fmt.Sscanf(lines[i], "@ %d\n", &c.offset)
		require.NoError(t, err, "checkpoint line %q", lines[i])
		var rows int
		require.Less(t, i+1, len(lines), "checkpoint @ %d has no capture", c.offset)
		_, err = fmt.Sscanf(lines[i+1], "%d %d", new(int), &rows)
		require.NoError(t, err, "capture header %q", lines[i+1])
		end := min(i+2+rows, len(lines))
		c.capture = strings.Join(lines[i+1:end], "")
		out = append(out, c)
		i = end
	}
	return out
}

// captureCheckpoint asks tmux what it shows after stream[:off] in a pane
// of cols×rows, resized as the recording was when off is at or past the
// resize.
func captureCheckpoint(stream []byte, off, cols, rows int, resize *corpusResize) (string, error) {
	dir, err := os.MkdirTemp("", "corpus-cp")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	if resize == nil || off < resize.offset {
		return tmuxCapture(dir, stream[:off], cols, rows)
	}
	return tmuxCaptureResize(dir, reflowCase{fromCols: cols, fromRows: rows, toCols: resize.cols, toRows: resize.rows,
		before: string(stream[:resize.offset]), after: string(stream[resize.offset:off])})
}

func TestScreenCorpusCheckpoints(t *testing.T) {
	t.Parallel()
	for _, base := range recordedStreams(t) {
		name := filepath.Base(base)
		t.Run(name, func(t *testing.T) {
			stream, err := os.ReadFile(base + ".stream")
			require.NoError(t, err)
			resize := readResize(t, base)
			if *updateCorpus {
				// The recording's first size: before its resize, or its
				// capture's.
				var cols, rows int
				if resize != nil {
					cols, rows = resize.fromCols, resize.fromRows
				} else {
					head, err := os.ReadFile(base + ".tmux")
					require.NoError(t, err)
					_, err = fmt.Sscanf(string(head), "%d %d", &cols, &rows)
					require.NoError(t, err)
				}
				var b strings.Builder
				for _, off := range checkpointOffsets(stream, resize) {
					capture, err := captureCheckpoint(stream, off, cols, rows, resize)
					require.NoError(t, err, "%s @ %d", name, off)
					fmt.Fprintf(&b, "@ %d\n%s", off, capture)
				}
				require.NoError(t, os.WriteFile(base+".checkpoints", []byte(b.String()), 0o644))
			}
			text, err := os.ReadFile(base + ".checkpoints")
			require.NoError(t, err, "run with -update to take %s's checkpoints", name)
			cps := parseCheckpoints(t, string(text))
			require.Equal(t, checkpointOffsets(stream, resize), offsetsOf(cps),
				"the stream changed; run with -update")
			for _, c := range cps {
				t.Run(fmt.Sprint(c.offset), func(t *testing.T) {
					t.Parallel()
					var r *corpusResize
					if resize != nil && c.offset >= resize.offset {
						r = resize
					}
					compareWithTmux(t, stream[:c.offset], c.capture, r)
				})
			}
		})
	}
}

func offsetsOf(cps []checkpoint) []int {
	out := make([]int, len(cps))
	for i, c := range cps {
		out[i] = c.offset
	}
	return out
}
