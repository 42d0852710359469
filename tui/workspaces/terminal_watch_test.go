package workspaces

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/stretchr/testify/require"
)

// watchHost is the part of kit.Host the attached pane's key path and
// Watch use.
type watchHost struct {
	kit.Host
	ctx  context.Context
	keys kit.KeyMap
}

func (h watchHost) AppContext() context.Context { return h.ctx }
func (h watchHost) KeyMap() *kit.KeyMap         { return &h.keys }

// watchTerm is a Terminal whose Changed the test drives.
type watchTerm struct {
	Terminal
	changed chan struct{}
	keys    chan string
}

func (t *watchTerm) ID() string                           { return "t1" }
func (t *watchTerm) Subscribe() (<-chan struct{}, func()) { return t.changed, func() {} }
func (t *watchTerm) SendKey(k tea.KeyPressMsg)            { t.keys <- k.String() }

// A change that arrives inside the frame cap waits for the cap, unless a
// key was typed into the session: then it is the key's echo and the
// redraw goes out at once.
func TestTypedKeyCutsTheFrameWait(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := New(watchHost{ctx: ctx, keys: kit.DefaultKeyMap()}, nil)
	term := &watchTerm{changed: make(chan struct{}, 1), keys: make(chan string, 1)}
	p.term, p.Mode, p.TermGen = term, wsAttached, 1
	// The last redraw is in the future, so the cap's wait is an hour long:
	// only the key can end it.
	p.lastNudge = time.Now().Add(time.Hour)

	cmd := p.Watch()
	require.NotNil(t, cmd)
	got := make(chan tea.Msg, 1)
	go func() { got <- cmd() }()
	term.changed <- struct{}{}

	require.Nil(t, p.onKey(tea.KeyPressMsg{Code: 'a', Text: "a"}))
	require.Equal(t, "a", <-term.keys, "the key went to the session")
	select {
	case msg := <-got:
		require.Equal(t, TermChangedMsg{ID: "t1", Gen: 1}, msg)
	case <-time.After(30 * time.Second):
		t.Fatal("the redraw after a typed key waited out the frame cap")
	}
}

// Without input the capped wait ends only with the program.
func TestFrameWaitEndsWithTheProgram(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	p := New(watchHost{ctx: ctx, keys: kit.DefaultKeyMap()}, nil)
	term := &watchTerm{changed: make(chan struct{}, 1)}
	p.term, p.Mode, p.TermGen = term, wsAttached, 1
	p.lastNudge = time.Now().Add(time.Hour)
	cmd := p.Watch()
	got := make(chan tea.Msg, 1)
	go func() { got <- cmd() }()
	term.changed <- struct{}{}
	cancel()
	select {
	case msg := <-got:
		require.Nil(t, msg)
	case <-time.After(30 * time.Second):
		t.Fatal("the watch outlived the program")
	}
}
