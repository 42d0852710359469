package workspace

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/stretchr/testify/require"
)

// xtermKeys is what xterm sends for each key. The test decodes each with
// the same decoder bubbletea uses (so the session gets the KeyPressMsg the
// pane gets), sends it through Session.SendKey — the pane's attach path —
// and compares with the bytes the child reads from its pty.
func xtermKeys() []string {
	var keys []string
	for c := byte(0x20); c < 0x7f; c++ { // every printable ASCII, both cases
		keys = append(keys, string(c))
	}
	for c := byte(0x00); c < 0x20; c++ { // ctrl letters and friends
		if c == 0x1b {
			continue // Esc, below on its own
		}
		keys = append(keys, string([]byte{c}))
	}
	keys = append(keys,
		"\x1b", "\x7f", "\x1b\x7f", "\t", "\x1b[Z", "\x1b\x1b[Z", "\r", "\x1b\r", "\x1b\x1b",
		"\x1ba", "\x1bA", "\x1bz", "\x1b1", "\x1b.", "\x1b~", "\x1bé", "\x1b\x01",
		"\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1b[H", "\x1b[F",
		"\x1b[1;2A", "\x1b[1;3B", "\x1b[1;5C", "\x1b[1;6D", "\x1b[1;7A", "\x1b[1;2H", "\x1b[1;5F",
		"\x1b[2~", "\x1b[3~", "\x1b[5~", "\x1b[6~", "\x1b[3;2~", "\x1b[5;5~", "\x1b[6;3~",
		"\x1bOP", "\x1bOQ", "\x1bOR", "\x1bOS", "\x1b[1;2P", "\x1b[1;5S",
		"\x1b[15~", "\x1b[17~", "\x1b[18~", "\x1b[19~", "\x1b[20~", "\x1b[21~", "\x1b[23~", "\x1b[24~",
		"\x1b[15;2~", "\x1b[24;5~",
		"é", "ß", "日", "本", "🙂", "👍🏽", "ü",
	)
	return keys
}

func decodeKey(t *testing.T, b string) KeyPress {
	t.Helper()
	var d uv.EventDecoder
	n, ev := d.Decode([]byte(b))
	require.Equal(t, len(b), n, "decoder consumed all of %q", b)
	k, ok := ev.(uv.KeyPressEvent)
	require.True(t, ok, "%q decodes to a key, got %T", b, ev)
	return k
}

// rawSink starts a session whose child puts its tty in raw mode and copies
// what it reads to a file; pre is printed first (e.g. to enable modes).
func rawSink(t *testing.T, pre string) (*Session, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "keys.bin")
	script := fmt.Sprintf("printf '%s'; stty raw -echo; printf 'READY\\n'; exec cat > %s", pre, out)
	m := newTestManager(t, t.TempDir(), func(o *Options) { o.ShellCommand = []string{"/bin/sh", "-c", script} })
	w := createWS(t, m, "keys", "shell-only")
	s, err := m.StartSession(w.ID, "")
	require.NoError(t, err)
	waitScreen(t, s, "READY")
	return s, out
}

func readUntil(t *testing.T, path string, want []byte) []byte {
	t.Helper()
	var got []byte
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		got, _ = os.ReadFile(path)
		if len(got) >= len(want) {
			break
		}
		time.Sleep(tick)
	}
	return got
}

func TestEveryKeyReachesTheChildAsXtermSendsIt(t *testing.T) {
	t.Parallel()
	s, out := rawSink(t, "")
	var want []byte
	for _, b := range xtermKeys() {
		// Each key is followed by a marker so a mismatch names the key.
		s.SendKey(decodeKey(t, b))
		s.SendKey(decodeKey(t, "|"))
		want = append(want, b+"|"...)
	}
	got := readUntil(t, out, want)
	if !bytes.Equal(want, got) {
		wk, gk := bytes.Split(want, []byte("|")), bytes.Split(got, []byte("|"))
		for i := range min(len(wk), len(gk)) {
			require.Equal(t, fmt.Sprintf("%q", wk[i]), fmt.Sprintf("%q", gk[i]), "key #%d", i)
		}
		require.Equal(t, want, got)
	}
}

func TestModesTheChildSetChangeWhatKeysSend(t *testing.T) {
	t.Parallel()
	// Application cursor keys and bracketed paste enabled by the child.
	s, out := rawSink(t, `\033[?1h\033[?2004h`)
	s.SendKey(decodeKey(t, "\x1b[A"))
	s.SendKey(decodeKey(t, "\x1b[H"))
	s.SendKey(decodeKey(t, "\x1b[1;5A")) // modified arrows keep CSI form
	s.Paste("line one\nline two é")
	want := []byte("\x1bOA\x1bOH\x1b[1;5A\x1b[200~line one\nline two é\x1b[201~")
	require.Equal(t, fmt.Sprintf("%q", want), fmt.Sprintf("%q", readUntil(t, out, want)))
}

func TestPasteWithoutBracketedModeHasNoMarkers(t *testing.T) {
	t.Parallel()
	s, out := rawSink(t, "")
	s.Paste("multi\nline 日本 🙂")
	want := []byte("multi\nline 日本 🙂")
	require.Equal(t, fmt.Sprintf("%q", want), fmt.Sprintf("%q", readUntil(t, out, want)))
}
