package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
)

// runBusy is a chatty session: a numbered line every 5 ms, forever.
func runBusy() {
	w := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		fmt.Fprintf(w, "busy %08d %s\n", i, strings.Repeat("-", 60))
		if w.Flush() != nil {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// runFrames draws n full-screen frames on the alternate screen as fast as
// the terminal takes them: row 0 carries the frame number between two
// characters that change every frame (so any renderer rewrites the whole
// label when it draws a frame), the other rows are coloured text that
// changes every frame. Then it leaves the alternate screen and prints the
// sentinel.
func runFrames(n int) {
	cols, rows, err := term.GetSize(os.Stdout.Fd())
	if err != nil || cols < 20 || rows < 5 {
		cols, rows = 80, 24
	}
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	w.WriteString("\x1b[?1049h\x1b[?25l")
	const text = "the quick brown fox jumps over the lazy dog 0123456789 "
	for f := 0; f < n; f++ {
		c := byte('A' + f%26)
		w.WriteString("\x1b[H\x1b[m")
		label := fmt.Sprintf("%cFRAME %06d%c", c, f, c)
		w.WriteString(label)
		w.WriteString(strings.Repeat(" ", cols-len(label)))
		for r := 1; r < rows; r++ {
			fmt.Fprintf(w, "\x1b[%d;1H", r+1)
			for x := 0; x < cols; x += 10 {
				fmt.Fprintf(w, "\x1b[38;5;%dm", (f+r+x/10)%216+16)
				for i := x; i < min(x+10, cols); i++ {
					w.WriteByte(text[(i+f+r)%len(text)])
				}
			}
		}
		w.WriteString("\x1b[m")
		if w.Flush() != nil {
			return
		}
	}
	w.WriteString("\x1b[?25h\x1b[?1049l" + sentinel + "\n")
	_ = w.Flush()
}
