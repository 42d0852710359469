package workspace

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestResizeProbe feeds generated streams (genStream, seeds from 1000) cut
// at a random escape sequence and resized there to one of eight sizes to
// the pane and to tmux, and compares the screen right after the resize.
// Seeds whose stream already differs before the resize are skipped. It
// needs tmux for every case, so it runs only when asked:
//
//	CORPUS_RESIZE_PROBE=400 go test ./workspace -run TestResizeProbe
//
// (CORPUS_RESIZE_FROM=S starts at seed S; CORPUS_RESIZE_REST=1 feeds the
// rest of the stream after the resize and compares at its end;
// CORPUS_RESIZE_SMALL=1 generates at 20×6.) Seeds
// that differed are kept
// in resizeSeeds, stored in testdata like the rest of the corpus.
func TestResizeProbe(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("CORPUS_RESIZE_PROBE"))
	if n <= 0 {
		t.Skip("set CORPUS_RESIZE_PROBE=N to probe N seeds against tmux")
	}
	tmpDir := func() string {
		d, err := os.MkdirTemp("", "corpus-probe")
		require.NoError(t, err)
		t.Cleanup(func() { os.RemoveAll(d) })
		return d
	}
	rest := os.Getenv("CORPUS_RESIZE_REST") != ""
	small := os.Getenv("CORPUS_RESIZE_SMALL") != ""
	cols, rows := corpusCols, corpusRows
	if small {
		cols, rows = smallCols, smallRows
	}
	from := uint64(1000)
	if f, err := strconv.ParseUint(os.Getenv("CORPUS_RESIZE_FROM"), 10, 64); err == nil {
		from = f
	}
	for seed := from; seed < from+uint64(n); seed++ {
		stream, off, sz := probeCut(seed, small)
		before, err := tmuxCapture(tmpDir(), stream[:off], cols, rows)
		require.NoError(t, err)
		if !t.Run(fmt.Sprintf("seed%d-before", seed), func(t *testing.T) { compareWithTmux(t, stream[:off], before, nil) }) {
			continue // an emulator difference the resize has nothing to do with
		}
		end := off
		if rest {
			end = len(stream)
		}
		after, err := tmuxCaptureResize(tmpDir(), reflowCase{fromCols: cols, fromRows: rows,
			toCols: sz[0], toRows: sz[1], before: string(stream[:off]), after: string(stream[off:end])})
		require.NoError(t, err)
		t.Run(fmt.Sprintf("seed%d-%dx%d", seed, sz[0], sz[1]), func(t *testing.T) {
			compareWithTmux(t, stream[:end], after, &corpusResize{off, cols, rows, sz[0], sz[1]})
		})
	}
}

// probeCut is the probe's case for a seed: the generated stream (at
// 80×24, or 20×6 when small), the offset of the escape sequence it is
// resized at, and the size after (at least alice's smallest, 20×5).
func probeCut(seed uint64, small bool) (stream []byte, off int, size [2]int) {
	sizes := [][2]int{{60, 24}, {100, 24}, {80, 15}, {80, 30}, {50, 10}, {120, 40}, {79, 23}, {81, 25}}
	stream = genStream(seed, corpusCols, corpusRows, corpusOps)
	if small {
		sizes = [][2]int{{25, 6}, {20, 8}, {30, 10}, {21, 7}, {22, 5}, {40, 6}, {20, 12}, {24, 9}}
		stream = genStream(seed, smallCols, smallRows, corpusOps)
	}
	r := rand.New(rand.NewPCG(seed, 99))
	off = len(stream) * (1 + r.IntN(8)) / 10
	if j := bytes.IndexByte(stream[off:], 0x1b); j >= 0 {
		off += j
	}
	return stream, off, sizes[r.IntN(len(sizes))]
}

// resizeSeeds are probe cases that differed from tmux right after the
// resize, kept as corpus entries resize-SEED (the stream up to the
// resize, .resize, and what tmux showed after it, .tmux) that
// TestScreenCorpus compares like every entry; `-update` records them.
var resizeSeeds = []uint64{
	// Wrap flags as tmux 3.3a moves them: SD and RI unwrap the top row
	// they move (grid_move_lines), DECALN keeps the flags.
	1050, 1135, 1175, 1177, 1209, 1334,
	// A narrower alternate screen: the cursor past the new margin, a
	// wide character the margin cuts.
	1097, 1195,
	// Reflow as tmux's grid_reflow and grid_unwrap_position: an empty
	// row that does not continue ends a joined line; the cursor at the
	// end of a line whose last row is still wrapped goes to the row
	// below; a row fitting whole keeps its background blanks but not in
	// the count the cursor is measured against; a wrapped row reaches
	// the history with the cells its line used, not the whole row.
	1479, 1482, 1747, 1857, 1872, 2037, 2185, 2274, 2281, 2310, 2339,
}

// resizeRestSeeds are probe cases that differed from tmux at the end of
// the whole stream fed after the resize (CORPUS_RESIZE_REST), kept as
// resize-rest-SEED.
var resizeRestSeeds = []uint64{
	// A width change keeps the scroll region (tmux resets it only when
	// the height changes): a line feed at the region's bottom scrolled
	// the whole screen.
	1008, 1064, 1065, 1114, 1117,
	// A cursor saved past the margin (DECSC, SCOSC with a wrap pending)
	// is tmux's column past the last one: restored on a wider screen it
	// is that column (it came back on the old last column).
	1356, 1427,
	// A height change keeps the tab stops (tmux resets them only when
	// the width changes): CBT after TBC 3 found a stop at 8.
	1539,
}

// resizeSmallSeeds are probe cases at 20×6 (CORPUS_RESIZE_SMALL) that
// differed from tmux right after the resize, kept as resize-20x6-SEED.
var resizeSmallSeeds = []uint64{
	// The last row of a line whose wide first character does not fit
	// after a row joined whole: tmux's grid_reflow_join unwraps the row
	// it joined onto, and the cursor at the end of the line stays there.
	1094, 1368,
	// tmux finds the cursor's line after a reflow by counting the rows
	// that end a line, so where its reflow split a line (above) the
	// cursor lands a line early.
	1183, 1345,
}

// TestResizeCorpusCurrent checks the stored resize-SEED and
// resize-rest-SEED streams are the probe's (and with -update writes them
// and tmux's captures).
func TestResizeCorpusCurrent(t *testing.T) {
	t.Parallel()
	type entry struct {
		seed        uint64
		rest, small bool
	}
	var entries []entry
	for _, seed := range resizeSeeds {
		entries = append(entries, entry{seed, false, false})
	}
	for _, seed := range resizeRestSeeds {
		entries = append(entries, entry{seed, true, false})
	}
	for _, seed := range resizeSmallSeeds {
		entries = append(entries, entry{seed, false, true})
	}
	for _, e := range entries {
		seed := e.seed
		stream, off, sz := probeCut(seed, e.small)
		name, end := fmt.Sprintf("resize-%d", seed), off
		cols, rows := corpusCols, corpusRows
		switch {
		case e.rest:
			name, end = fmt.Sprintf("resize-rest-%d", seed), len(stream)
		case e.small:
			name, cols, rows = fmt.Sprintf("resize-%dx%d-%d", smallCols, smallRows, seed), smallCols, smallRows
		}
		base := filepath.Join(corpusDir, name)
		resize := fmt.Sprintf("%d %d %d %d %d\n", off, cols, rows, sz[0], sz[1])
		if *updateCorpus {
			capture, err := tmuxCaptureResize(t.TempDir(), reflowCase{fromCols: cols, fromRows: rows,
				toCols: sz[0], toRows: sz[1], before: string(stream[:off]), after: string(stream[off:end])})
			require.NoError(t, err, seed)
			require.NoError(t, os.WriteFile(base+".stream", stream[:end], 0o644))
			require.NoError(t, os.WriteFile(base+".resize", []byte(resize), 0o644))
			require.NoError(t, os.WriteFile(base+".tmux", []byte(capture), 0o644))
		}
		got, err := os.ReadFile(base + ".stream")
		require.NoError(t, err, "run with -update to record %s", name)
		require.Equal(t, stream[:end], got, "%s: the generator changed; run with -update", name)
		gotResize, err := os.ReadFile(base + ".resize")
		require.NoError(t, err)
		require.Equal(t, resize, string(gotResize), "seed %d", seed)
	}
}
