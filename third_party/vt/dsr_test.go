package vt

import (
	"testing"
	"time"
)

// TestDeviceStatusReplies (alice patch): DSR 5 (operating status) is
// answered CSI 0 n, as tmux 3.3a and xterm answer it (upstream sent the
// DEC form, CSI ? 0 n); DSR 6 with the cursor's position.
func TestDeviceStatusReplies(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\x1b[5n", "\x1b[0n"},
		{"\x1b[3;7H\x1b[6n", "\x1b[3;7R"},
	} {
		e := NewEmulator(20, 5)
		go func() { _, _ = e.WriteString(c.in) }()
		got := make(chan string, 1)
		go func() {
			buf := make([]byte, 64)
			n, _ := e.Read(buf)
			got <- string(buf[:n])
		}()
		select {
		case g := <-got:
			if g != c.want {
				t.Errorf("%q: replied %q, want %q", c.in, g, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q: no reply", c.in)
		}
		_ = e.Close()
	}
}
