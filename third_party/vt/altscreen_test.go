package vt

import "testing"

// TestAltScreenCellsOnlyWhileOn (alice patch): the alternate screen holds
// no cells while the main screen is on, is entered at the main screen's
// current size (after resizes made while it had none), and drops its
// cells again on the way out, by 1049, 1047 and 47 alike.
func TestAltScreenCellsOnlyWhileOn(t *testing.T) {
	e := NewEmulator(80, 24)
	alt := &e.scrs[1]
	if alt.Width() != 0 || alt.Height() != 0 {
		t.Fatalf("alternate screen %dx%d before use, want 0x0", alt.Width(), alt.Height())
	}
	e.Resize(100, 30)
	for _, m := range []string{"1049", "1047", "47"} {
		_, _ = e.WriteString("\x1b[?" + m + "h")
		if !e.IsAltScreen() || alt.Width() != 100 || alt.Height() != 30 {
			t.Fatalf("%s: in alt %v, %dx%d, want the main screen's 100x30", m, e.IsAltScreen(), alt.Width(), alt.Height())
		}
		// The bottom right cell exists and takes text.
		_, _ = e.WriteString("\x1b[30;100HZ")
		if c := e.CellAt(99, 29); c == nil || c.Content != "Z" {
			t.Fatalf("%s: bottom right cell %v, want Z", m, c)
		}
		e.Resize(90, 20)
		if alt.Width() != 90 || alt.Height() != 20 {
			t.Fatalf("%s: resized in alt to %dx%d, want 90x20", m, alt.Width(), alt.Height())
		}
		_, _ = e.WriteString("\x1b[?" + m + "l")
		if e.IsAltScreen() || alt.Width() != 0 || alt.Height() != 0 {
			t.Fatalf("%s: after leaving: in alt %v, alternate %dx%d, want 0x0", m, e.IsAltScreen(), alt.Width(), alt.Height())
		}
		if e.Width() != 90 || e.Height() != 20 {
			t.Fatalf("%s: main screen %dx%d after leaving, want 90x20", m, e.Width(), e.Height())
		}
		e.Resize(100, 30)
	}
	// A reset (RIS) in either screen leaves it consistent.
	_, _ = e.WriteString("\x1b[?1049h\x1bc")
	_, _ = e.WriteString("hello")
	if c := e.CellAt(0, 0); c == nil || c.Content != "h" {
		t.Fatalf("after RIS: first cell %v, want h", c)
	}
}
