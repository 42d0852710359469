package workspace

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"
)

// keyModes are the keyboard reporting modes a program asked the terminal
// for beyond DEC modes: the kitty keyboard protocol's flags (a stack per
// screen, as the protocol requires) and xterm's modifyOtherKeys level. The
// pane encodes keys itself, but a zoom hands the real terminal to the
// program, which must then get keys the way it asked for them (claude
// pushes kitty flags to tell shift+enter from enter; vim sets
// modifyOtherKeys). Only read and changed under the terminal's lock.
type keyModes struct {
	kitty       [2][]int // [main, alternate] screen stacks, newest last
	modifyOther int
}

// kittyStackMax bounds each stack (kitty itself keeps a few dozen; a
// program that pushes without popping loses its oldest entries).
const kittyStackMax = 16

func (k *keyModes) stack(alt bool) *[]int {
	if alt {
		return &k.kitty[1]
	}
	return &k.kitty[0]
}

// flags is the screen's current kitty flags (0: legacy keys).
func (k *keyModes) flags(alt bool) int {
	if s := *k.stack(alt); len(s) > 0 {
		return s[len(s)-1]
	}
	return 0
}

// push is CSI > flags u.
func (k *keyModes) push(alt bool, flags int) {
	s := k.stack(alt)
	if len(*s) == kittyStackMax {
		*s = append((*s)[:0], (*s)[1:]...)
	}
	*s = append(*s, flags)
}

// pop is CSI < n u: n entries off (an emptied stack means flags 0).
func (k *keyModes) pop(alt bool, n int) {
	s := k.stack(alt)
	*s = (*s)[:max(0, len(*s)-max(n, 1))]
}

// set is CSI = flags ; mode u on the current entry: 1 replaces, 2 sets the
// given bits, 3 clears them.
func (k *keyModes) set(alt bool, flags, mode int) {
	cur := k.flags(alt)
	switch mode {
	case 2:
		cur |= flags
	case 3:
		cur &^= flags
	default:
		cur = flags
	}
	s := k.stack(alt)
	if len(*s) == 0 {
		*s = append(*s, cur)
		return
	}
	(*s)[len(*s)-1] = cur
}

// reset is what RIS does to them.
func (k *keyModes) reset() { *k = keyModes{} }

// zoom is what puts the real terminal in these modes for the shown screen.
func (k *keyModes) zoom(alt bool) string {
	var s string
	if k.modifyOther > 0 {
		s += fmt.Sprintf("\x1b[>4;%dm", k.modifyOther)
	}
	if f := k.flags(alt); f != 0 {
		s += fmt.Sprintf("\x1b[>%du", f)
	}
	return s
}

// observeKeyModes has the emulator report the sequences to t.keys. The
// handlers only watch (they return false): the emulator's own handling
// runs after them. They run inside emu.Write, under t.mu.
func (t *Terminal) observeKeyModes() {
	param := func(p ansi.Params, i, def int) int {
		v, _, _ := p.Param(i, def)
		return v
	}
	t.emu.RegisterCsiHandler(ansi.Command('>', 0, 'u'), func(p ansi.Params) bool {
		t.keys.push(t.emu.IsAltScreen(), param(p, 0, 0))
		return false
	})
	t.emu.RegisterCsiHandler(ansi.Command('<', 0, 'u'), func(p ansi.Params) bool {
		t.keys.pop(t.emu.IsAltScreen(), param(p, 0, 1))
		return false
	})
	t.emu.RegisterCsiHandler(ansi.Command('=', 0, 'u'), func(p ansi.Params) bool {
		t.keys.set(t.emu.IsAltScreen(), param(p, 0, 0), param(p, 1, 1))
		return false
	})
	t.emu.RegisterCsiHandler(ansi.Command('>', 0, 'm'), func(p ansi.Params) bool {
		// CSI > 4 ; n m sets modifyOtherKeys to n; CSI > 4 m and CSI > m
		// put it back to its initial 0.
		if len(p) == 0 || param(p, 0, 0) == 4 {
			t.keys.modifyOther = param(p, 1, 0)
		}
		return false
	})
	t.emu.RegisterEscHandler('c', func() bool { // RIS
		t.keys.reset()
		return false
	})
}
