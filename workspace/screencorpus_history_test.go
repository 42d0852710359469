package workspace

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/require"
)

// History equality with tmux: the lines a stream scrolled off the top (the
// pane's ring; tmux's history, capture-pane -e -N -S - -E -1), cell by
// cell, text and attributes, for every corpus entry: NAME.hist holds what
// tmux had. `-update` records them (needs tmux); entries whose history
// is empty have none.

// historyLimit is the history both keep here: more than any corpus entry
// scrolls, so neither trims (tmux trims a tenth at a time).
const historyLimit = 100000

// knownHistDiffs are entries whose history still differs from tmux's,
// each in a class of knownDiffs (screencorpus_test.go).
var knownHistDiffs = map[string]string{
	"gen-20x6-56": "ED 2 scrolls a row into the history where DCH cut a wide character: " + diffWideHalf,
}

func TestScreenCorpusHistory(t *testing.T) {
	t.Parallel()
	eachCorpusStream(t, func(t *testing.T, name, base string, stream []byte) {
		capture, err := os.ReadFile(base + ".tmux")
		require.NoError(t, err)
		var cols, rows int
		_, err = fmt.Sscanf(string(capture), "%d %d", &cols, &rows)
		require.NoError(t, err)
		resize := readResize(t, base)
		if *updateCorpus {
			tc := reflowCase{fromCols: cols, fromRows: rows, toCols: cols, toRows: rows, before: string(stream)}
			if resize != nil {
				tc = reflowCase{fromCols: resize.fromCols, fromRows: resize.fromRows, toCols: cols, toRows: rows,
					before: string(stream[:resize.offset]), after: string(stream[resize.offset:])}
			}
			hist, err := tmuxHistoryResize(t.TempDir(), tc, historyLimit)
			require.NoError(t, err)
			_ = os.Remove(base + ".hist")
			if hist != "" {
				require.NoError(t, os.WriteFile(base+".hist", []byte(hist), 0o644))
			}
		}
		want, err := os.ReadFile(base + ".hist")
		if os.IsNotExist(err) {
			want = nil
		} else {
			require.NoError(t, err)
		}
		if why, ok := knownHistDiffs[name]; ok && os.Getenv("CORPUS_ALL") == "" {
			t.Skip("known difference from tmux: " + why)
		}
		term := feedCorpus(stream, resize, cols, rows, historyLimit)
		defer term.Close()
		term.mu.Lock()
		got := term.ring.styled()
		term.mu.Unlock()
		compareHistory(t, got, want)
	})
}

// compareHistory compares the ring's lines (styled) with tmux's history
// capture, cell by cell: each line is read by an emulator as parseCapture
// reads the screen (capture-pane carries its SGR and line-drawing state
// from line to line, the ring's lines start from the default).
func compareHistory(t *testing.T, got []string, capture []byte) {
	t.Helper()
	var want []string
	if len(capture) > 0 {
		want = strings.Split(strings.TrimSuffix(string(capture), "\n"), "\n")
	}
	require.Len(t, got, len(want), "history lines (pane, tmux)")
	const width = 512
	pane, tmux := vt.NewEmulator(width, 1), vt.NewEmulator(width, 1)
	_, _ = tmux.Write([]byte("\x1b)0"))
	var diffs []string
	for i := range want {
		_, _ = pane.Write([]byte("\x1b[m\x1b[2K\r" + got[i]))
		// Blank the row without the carried attributes (DECSC keeps them).
		_, _ = tmux.Write([]byte("\x1b7\x1b[m\x1b[2K\x1b8\r" + captureSGR.ReplaceAllStringFunc(want[i], fixCaptureSGR)))
		for x := 0; x < width && len(diffs) < 10; x++ {
			if d := cellDiff(pane.CellAt(x, 0), tmux.CellAt(x, 0)); d != "" {
				diffs = append(diffs, fmt.Sprintf("line %d (%d): %s\n pane %q\n tmux %q", i, x, d, got[i], want[i]))
				break
			}
		}
	}
	if len(diffs) > 0 {
		t.Errorf("history differs from tmux:\n%s", strings.Join(diffs, "\n"))
	}
}
