package workspace

import (
	"fmt"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Reflow on a width change (and history pulled down by a taller screen),
// against tmux. Each case is a stream written
// at one size, a resize, and a stream written after it; `-update` stores
// them in testdata/terminal as reflow-NAME (.stream, .resize and what tmux
// showed, .tmux), and TestScreenCorpus compares the pane with tmux cell by
// cell like every corpus entry. tmux rewraps the main screen's
// soft-wrapped lines (grid_reflow) and keeps the cursor on its character.

type reflowCase struct {
	name               string
	fromCols, fromRows int
	toCols, toRows     int
	before, after      string
}

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d\r\n", i)
	}
	return b.String()
}

// forty is a row of 40 letters.
var forty = strings.Repeat("abcdefghij", 4)

var reflowCases = []reflowCase{
	{name: "shrink", fromCols: 80, fromRows: 24, toCols: 50, toRows: 24,
		before: numbered(10) + strings.Repeat("abcdefghij", 20) + "\r\n$ ", after: "typed"},
	{name: "grow", fromCols: 60, fromRows: 20, toCols: 100, toRows: 20,
		before: "one\r\n" + strings.Repeat("0123456789", 15) + "\r\nshort\r\n" + strings.Repeat("klmnopqrst", 13) + "\r\n$ ", after: "X"},
	{name: "grow-history", fromCols: 60, fromRows: 10, toCols: 100, toRows: 10,
		before: strings.Repeat(strings.Repeat("abcdefghij", 9)+"\r\n", 12) + "$ ", after: "X"},
	{name: "shrink-history", fromCols: 80, fromRows: 24, toCols: 40, toRows: 10,
		before: numbered(30) + strings.Repeat("xyz ", 30) + "\r\nend\r\n", after: "after\r\n"},
	{name: "wide", fromCols: 80, fromRows: 24, toCols: 51, toRows: 24,
		before: "a" + strings.Repeat("漢", 45) + "b\r\n", after: "c"},
	{name: "pending", fromCols: 80, fromRows: 24, toCols: 60, toRows: 24,
		before: "top\r\n" + strings.Repeat("x", 80), after: "Y"},
	{name: "cursor-mid", fromCols: 80, fromRows: 24, toCols: 40, toRows: 24,
		before: "head\r\n" + strings.Repeat("0123456789", 15) + "\x1b[1A\x1b[10G", after: "Z"},
	{name: "backspace", fromCols: 80, fromRows: 24, toCols: 60, toRows: 24,
		before: strings.Repeat("abcde", 20), after: strings.Repeat("\b", 41) + "Q"},
	{name: "erase", fromCols: 80, fromRows: 24, toCols: 40, toRows: 24,
		before: strings.Repeat("q", 150) + "\x1b[2;1H\x1b[2K" + "\x1b[3;1H", after: "W"},
	{name: "spaces", fromCols: 80, fromRows: 24, toCols: 30, toRows: 24,
		before: strings.Repeat("word ", 40) + "\r\n\x1b[31mred " + strings.Repeat("r ", 50) + "\x1b[m\r\n", after: "$ "},
	// Erased cells at the end of a row still belong to its line (tmux's
	// cellused): EL 0, ECH and ED 0 leave them, ICH and DCH move cells up
	// to (near) the margin, EL 2 empties the row; a cursor placed inside
	// the erased part stays there. claude's rows, erased after their text,
	// were cut in two by tmux and not by the pane when it shrank.
	// A taller screen pulls the lines that scrolled off its top back down
	// (tmux's screen_resize_y takes them from hscrolled), not those an
	// erase pushed there (ED 2 resets the count); with a width change too
	// the pull comes first, at the old width.
	{name: "pull", fromCols: 40, fromRows: 5, toCols: 40, toRows: 8,
		before: numbered(10) + "$ ", after: "X"},
	{name: "pull-cleared", fromCols: 40, fromRows: 5, toCols: 40, toRows: 12,
		before: numbered(10) + "\x1b[2J\x1b[Hab\r\ncd\r\nef\r\ngh\r\nij\r\nkl\r\n$ ", after: "X"},
	{name: "pull-wider", fromCols: 40, fromRows: 5, toCols: 50, toRows: 9,
		before: numbered(4) + strings.Repeat("0123456789", 7) + "\r\n" + numbered(3) + "$ \x1b[3;2H", after: "X"},
	// Under the alternate screen (a program like vim) the main screen is
	// resized too: taller, it pulls its history down; shorter, its rows
	// above the cursor go to the history (they were cut off at the
	// bottom, the shell's prompt with them).
	{name: "alt-grow", fromCols: 40, fromRows: 5, toCols: 40, toRows: 8,
		before: numbered(10) + "$ \x1b[?1049hin vim", after: "\x1b[?1049lX"},
	{name: "alt-shrink", fromCols: 40, fromRows: 8, toCols: 30, toRows: 5,
		before: numbered(7) + "$ \x1b[?1049hin vim", after: "\x1b[?1049lX"},
	// 1047 leaves the alternate screen without restoring a cursor: the
	// cursor it had there goes back to the main screen as tmux's
	// screen_alternate_off moves it, through a resize to the size the
	// alternate screen was entered at (the alternate screen's rows:
	// past the end of its row, it goes to the end) and back (the main
	// screen's rows, the height change by that cursor).
	{name: "alt1047-shrink", fromCols: 40, fromRows: 10, toCols: 30, toRows: 6,
		before: numbered(7) + "\x1b[?1047h\x1b[9;35H", after: "\x1b[?1047lX"},
	{name: "alt1047-grow", fromCols: 80, fromRows: 24, toCols: 100, toRows: 30,
		before: "abc\x1b[?1047h\x1b[20;70H", after: "\x1b[?1047lX"},
	{name: "alt1047-narrow", fromCols: 80, fromRows: 24, toCols: 60, toRows: 10,
		before: "abc\x1b[?1047h\x1b[5;70H", after: "\x1b[?1047lX"},
	{name: "alt1047-text", fromCols: 60, fromRows: 10, toCols: 80, toRows: 10,
		before: "one\r\n" + forty + "\r\n$ \x1b[?1047h\x1b[2;1Hvim text here\x1b[2;5H", after: "\x1b[?1047lX"},
	{name: "alt1047-high", fromCols: 40, fromRows: 10, toCols: 40, toRows: 6,
		before: numbered(8) + "\x1b[?1047h\x1b[2;3H", after: "\x1b[?1047lX"},
	{name: "alt1049-high", fromCols: 40, fromRows: 10, toCols: 40, toRows: 6,
		before: numbered(8) + "\x1b[?1049h\x1b[2;3H", after: "\x1b[?1049lX"},
	// A shorter screen makes room for the cursor's row by moving the top
	// rows off, whatever the scroll region; on the alternate screen they
	// are gone (the bottom rows were cut instead, the cursor's with them).
	{name: "shrink-region", fromCols: 40, fromRows: 10, toCols: 40, toRows: 6,
		before: numbered(9) + "$ \x1b[2;5r\x1b[9;3H", after: "X"},
	{name: "alt-shrink-cursor", fromCols: 40, fromRows: 10, toCols: 40, toRows: 6,
		before: "\x1b[?1049h" + numbered(9) + "$ \x1b[2;8r\x1b[9;3H", after: "X"},
	// A cursor past the end of its line (moved there, nothing written)
	// goes to the end of the line when the width changes.
	{name: "cursor-past-end", fromCols: 40, fromRows: 10, toCols: 30, toRows: 10,
		before: numbered(9) + "$ \x1b[9;3H", after: "X"},
	// Blanks that only took the background (EL, DCH with a colour set)
	// are not part of the line: a row that fits the new width is not cut
	// in two for them.
	{name: "bce-tail", fromCols: 40, fromRows: 6, toCols: 20, toRows: 6,
		before: "abc\x1b[44m\x1b[1;2H\x1b[30P\x1b[m\r\nab\x1b[45m\x1b[K\x1b[m\r\nend\r\n$ ", after: "X"},
	// A row the cursor only passed through (a line feed with a wrap
	// pending, then a character) is wrapped but holds no cells: the next
	// row's text joins the line at its start, not after a row of blanks.
	{name: "wrap-after-lf", fromCols: 40, fromRows: 6, toCols: 60, toRows: 6,
		before: "\x1b[2;39Hab\nnext line\r\n$ ", after: "X"},
	// A pulled line that ends in a wide character keeps its second cell.
	{name: "pull-wide", fromCols: 40, fromRows: 5, toCols: 40, toRows: 10,
		before: "abc日本\r\n" + numbered(6) + "$ ", after: "X"},
	// Lines scrolled off the top of a region below a fixed header are
	// history too (tmux's grid_scroll_history_region) and come back.
	{name: "pull-region", fromCols: 40, fromRows: 5, toCols: 40, toRows: 8,
		before: "top\x1b[5;1Hbottom\x1b[2;4r\x1b[2;1H" + numbered(6) + "\x1b[r\x1b[4;1H", after: "X"},
	// DL drops the lines it deletes (tmux's history gets only lines that
	// scrolled), so growing the screen does not bring them back.
	{name: "pull-after-dl", fromCols: 40, fromRows: 5, toCols: 40, toRows: 10,
		before: numbered(10) + "\x1b[H\x1b[2M\x1b[3;1H$ ", after: "X"},
	// A width change keeps the scroll region (tmux resets it only when
	// the height changes): a line feed at its bottom scrolls the region.
	{name: "region-width", fromCols: 80, fromRows: 10, toCols: 100, toRows: 10,
		before: "top\x1b[7;10r\x1b[10;1Hbottom", after: "\nX"},
	// A height change keeps a pending wrap (the cursor past the margin).
	{name: "pending-taller", fromCols: 40, fromRows: 5, toCols: 40, toRows: 8,
		before: "top\r\n" + strings.Repeat("x", 40), after: "Y"},
	{name: "erased-tail", fromCols: 40, fromRows: 12, toCols: 20, toRows: 12,
		before: numbered(6) + forty[:32] + "\rab\x1b[K\r\n" + forty[:32] + "\x1b[26G\x1b[10X\r\n" +
			"abc\x1b[2G\x1b[2@\r\n" + "abcdef\x1b[2G\x1b[2P\r\n" + forty[:30] + "\x1b[11;2H\x1b[J" +
			"\x1b[12;1H" + forty[:32] + "\x1b[2K\r$ " + "\x1b[7;26H", after: "X"},
}

// TestReflowCorpusCurrent checks the stored reflow streams are the cases'
// (and with -update writes them and tmux's captures).
func TestReflowCorpusCurrent(t *testing.T) {
	t.Parallel()
	for _, tc := range reflowCases {
		base := filepath.Join(corpusDir, "reflow-"+tc.name)
		stream := tc.before + tc.after
		resize := fmt.Sprintf("%d %d %d %d %d\n", len(tc.before), tc.fromCols, tc.fromRows, tc.toCols, tc.toRows)
		if *updateCorpus {
			capture, err := tmuxCaptureResize(t.TempDir(), tc)
			require.NoError(t, err, tc.name)
			require.NoError(t, os.WriteFile(base+".stream", []byte(stream), 0o644))
			require.NoError(t, os.WriteFile(base+".resize", []byte(resize), 0o644))
			require.NoError(t, os.WriteFile(base+".tmux", []byte(capture), 0o644))
		}
		got, err := os.ReadFile(base + ".stream")
		require.NoError(t, err, "run with -update to record %s", tc.name)
		require.Equal(t, stream, string(got), "%s: the case changed; run with -update", tc.name)
		gotResize, err := os.ReadFile(base + ".resize")
		require.NoError(t, err)
		require.Equal(t, resize, string(gotResize), tc.name)
	}
}

// tmuxCaptureResize writes tc.before in a tmux pane of the first size,
// resizes the window, writes tc.after and captures as tmuxCapture does.
func tmuxCaptureResize(dir string, tc reflowCase) (string, error) {
	return tmuxReplay(dir, tc, 0, func(tm tmuxCmd) (string, error) {
		cur, err := tm("display", "-p", "#{cursor_x} #{cursor_y}")
		if err != nil {
			return "", err
		}
		screen, err := tm("capture-pane", "-p", "-e", "-N")
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d %d %s\n%s", tc.toCols, tc.toRows, strings.TrimSpace(string(cur)), screen), nil
	})
}

// tmuxHistoryResize replays tc as tmuxCaptureResize does, with a history
// of up to limit lines, and returns the history: capture-pane -p -e -N -S -
// -E -1 (nothing when it is empty).
func tmuxHistoryResize(dir string, tc reflowCase, limit int) (string, error) {
	return tmuxReplay(dir, tc, limit, func(tm tmuxCmd) (string, error) {
		n, err := tm("display", "-p", "#{history_size}")
		if err != nil || strings.TrimSpace(string(n)) == "0" {
			return "", err
		}
		out, err := tm("capture-pane", "-p", "-e", "-N", "-S", "-", "-E", "-1")
		return string(out), err
	})
}

// tmuxCmd runs a tmux command on the replay's server.
type tmuxCmd func(args ...string) ([]byte, error)

// tmuxReplay writes tc.before in a tmux pane of the first size (the pty in
// raw mode, so tmux sees the exact bytes), resizes the window, writes
// tc.after and returns what capture makes of the pane. historyLimit sets
// tmux's history-limit when it is not 0.
func tmuxReplay(dir string, tc reflowCase, historyLimit int, capture func(tmuxCmd) (string, error)) (string, error) {
	before, after := filepath.Join(dir, "before"), filepath.Join(dir, "after")
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(before, []byte(tc.before), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(after, []byte(tc.after), 0o644); err != nil {
		return "", err
	}
	settings := "set -g status off\n"
	if historyLimit > 0 {
		settings += fmt.Sprintf("set -g history-limit %d\n", historyLimit)
	}
	if err := os.WriteFile(conf, []byte(settings), 0o644); err != nil {
		return "", err
	}
	// Unique per directory: t.TempDir's are all named 001 in their
	// test's own directory, and parallel replays must not share a server.
	sock := fmt.Sprintf("alice-reflow-%d-%08x", os.Getpid(), crc32.ChecksumIEEE([]byte(dir)))
	tm := func(args ...string) ([]byte, error) {
		c := exec.Command("tmux", append([]string{"-L", sock, "-f", conf}, args...)...)
		c.Env = append(os.Environ(), "TMUX=")
		return c.CombinedOutput()
	}
	cmd := fmt.Sprintf("stty raw -echo; cat '%s'; tmux -L %s wait-for -S half; tmux -L %s wait-for resized; cat '%s'; tmux -L %s wait-for -S fed; sleep 60",
		before, sock, sock, after, sock)
	if out, err := tm("new-session", "-d", "-x", strconv.Itoa(tc.fromCols), "-y", strconv.Itoa(tc.fromRows), cmd); err != nil {
		return "", fmt.Errorf("tmux: %v: %s", err, out)
	}
	// tmux 3.3a leaves its socket behind when the server is killed.
	socket, _ := tm("display", "-p", "#{socket_path}")
	defer func() {
		_, _ = tm("kill-server")
		if p := strings.TrimSpace(string(socket)); strings.HasSuffix(p, "/"+sock) {
			_ = os.Remove(p)
		}
	}()
	for _, step := range [][]string{
		{"wait-for", "half"},
		{"resize-window", "-x", strconv.Itoa(tc.toCols), "-y", strconv.Itoa(tc.toRows)},
		{"wait-for", "-S", "resized"},
		{"wait-for", "fed"},
	} {
		if out, err := tm(step...); err != nil {
			return "", fmt.Errorf("tmux %s: %v: %s", step[0], err, out)
		}
	}
	return capture(tm)
}
