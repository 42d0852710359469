package workspace

import (
	"log/slog"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// Render renders only the rows that changed: after every chunk of every
// corpus stream (real programs and the generator's workouts, fed through
// the pane's feeder), with resizes and full resets (RIS) thrown in, it
// must equal rendering the whole screen afresh.
func TestRenderOfChangedRowsEqualsAFullRender(t *testing.T) {
	t.Parallel()
	eachCorpusStream(t, func(t *testing.T, _, _ string, stream []byte) {
		term := newTerminal(80, 24, 1000, nil, slog.New(slog.DiscardHandler))
		defer term.Close()
		r := rand.New(rand.NewPCG(uint64(len(stream)), 23))
		for p, chunk := stream, 0; len(p) > 0; chunk++ {
			n := min(len(p), 1+r.IntN(2048))
			term.Feed(p[:n])
			p = p[n:]
			switch r.IntN(40) {
			case 0:
				term.Resize(20+r.IntN(120), 5+r.IntN(45))
			case 1:
				term.Feed([]byte("\x1bc"))
			}
			got := term.Render()
			term.mu.Lock()
			want := term.emu.Render()
			term.mu.Unlock()
			require.Equal(t, want, got, "after chunk %d (%d bytes left)", chunk, len(p))
		}
	})
}
