package live

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"
)

// vtScreen replays program output into an emulator and polls it.
type vtScreen struct {
	t   *testing.T
	tm  *teatest.TestModel
	emu *vt.SafeEmulator
}

func newVTScreen(t *testing.T, tm *teatest.TestModel, w, h int) *vtScreen {
	emu := vt.NewSafeEmulator(w, h)
	go func() { _, _ = io.Copy(io.Discard, emu) }()
	t.Cleanup(func() { _ = emu.InputPipe().(io.Closer).Close() })
	return &vtScreen{t: t, tm: tm, emu: emu}
}

func (s *vtScreen) waitFor(want string) {
	s.t.Helper()
	if !s.wait(func(scr string) bool { return strings.Contains(scr, want) }) {
		s.t.Fatalf("screen never showed %q; last screen:\n%s", want, s.emu.String())
	}
}

// waitGone waits until the screen no longer shows gone.
func (s *vtScreen) waitGone(gone string) {
	s.t.Helper()
	if !s.wait(func(scr string) bool { return !strings.Contains(scr, gone) }) {
		s.t.Fatalf("screen still shows %q; last screen:\n%s", gone, s.emu.String())
	}
}

// wait polls the screen until ok holds (true) or 30 s pass (false).
func (s *vtScreen) wait(ok func(screen string) bool) bool {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if b, _ := io.ReadAll(s.tm.Output()); len(b) > 0 {
			_, _ = s.emu.Write(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
		}
		if ok(s.emu.String()) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}
