package workspaces

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// sendLine is the one-line input at the bottom of the Workspaces pane that
// types a prompt into a session without attaching to it.
//
// Once submitted the line stays up, busy, until the send has finished
// (sentMsg): SendText waits between the text and its Enter (150 ms, 1.2 s
// for a paste), and under load the result can come later still. Keys and
// pastes that reach the pane meanwhile are the person's next actions (d
// for the diff, i for the next prompt; esc too, since the send cannot be
// taken back): they are held and handled once the send finished, in order
// (see onSent). They used to be typed into the busy line, which the result
// then closed, so they were lost: a d pressed right after Enter never
// opened the diff, and an i with the next prompt and its Enter went partly
// into the closing line and partly to the list's keys.
type sendLine struct {
	in       textinput.Model
	targetID string
	name     string
	busy     bool
	held     heldInput // what arrived while busy
}

// sendKeyMap holds the send line's bindings, with help text.
type sendKeyMap struct {
	Open, Submit, Draft, Cancel key.Binding
}

var sendKeys = sendKeyMap{
	Open:   key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "type into session")),
	Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send + Enter")),
	Draft:  key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "type without Enter (draft)")),
	Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
}

func (k sendKeyMap) help() []key.Binding { return []key.Binding{k.Submit, k.Draft, k.Cancel} }

// sentMsg reports a finished send of line.
type sentMsg struct {
	line  *sendLine
	name  string
	enter bool
	err   error
}

// openSend targets the selected session, or else the workspace's newest
// live one.
func (p *Pane) openSend() tea.Cmd {
	if _, ok := p.agentCore(); !ok {
		return kit.ErrCmd(errors.New("this core cannot type into sessions"))
	}
	var target *SessionInfo
	if s, ok := p.selectedSession(); ok {
		target = &s
	} else {
		ss := p.sessions()
		for i := len(ss) - 1; i >= 0; i-- {
			if ss[i].Term != nil && isLive(ss[i].State) {
				target = &ss[i]
				break
			}
		}
	}
	if target == nil || !isLive(target.State) {
		return kit.ErrCmd(errors.New("no running session to type into: start one (s, c, x) or select one with ↓"))
	}
	in := textinput.New()
	in.Prompt = target.Name + " › "
	in.Placeholder = "prompt for the agent"
	in.CharLimit = 16 << 10
	in.SetWidth(max(10, p.w-ansi.StringWidth(in.Prompt)-2))
	p.Send = &sendLine{in: in, targetID: target.ID, name: target.Name}
	return p.Send.in.Focus()
}

// onSendKey handles keys while the send line is open.
func (p *Pane) onSendKey(msg tea.KeyPressMsg) tea.Cmd {
	s := p.Send
	submit := key.Matches(msg, sendKeys.Submit) || key.Matches(msg, sendKeys.Draft)
	if s.busy {
		// The submit key again, before anything else, is the same submit
		// pressed twice: dropped, as a busy line always did.
		if !submit || len(s.held) > 0 {
			s.held.add(msg)
		}
		return nil
	}
	switch {
	case key.Matches(msg, sendKeys.Cancel):
		p.Send = nil
		return nil
	case submit:
		ac, _ := p.agentCore()
		text, enter := s.in.Value(), key.Matches(msg, sendKeys.Submit)
		if strings.TrimSpace(text) == "" && !enter {
			return nil
		}
		s.busy = true
		id, name := s.targetID, s.name
		return func() tea.Msg { return sentMsg{line: s, name: name, enter: enter, err: ac.SendText(id, text, enter)} }
	}
	var cmd tea.Cmd
	s.in, cmd = s.in.Update(msg)
	return cmd
}

// onSent ends a send: a failed one leaves its line open with the text (to
// try again), a done one closes it. Then the input held meanwhile is
// handled, in order, as if it arrived now: after a failure it goes to the
// line, as it did before the send; after a success to the list. It goes
// to the pane directly, so nothing typed after it can overtake it; the
// root's keys it would have taken outside the line (q, ?) stay the pane's.
func (p *Pane) onSent(msg sentMsg) tea.Cmd {
	var held heldInput
	mine := p.Send != nil && p.Send == msg.line
	if mine {
		held, p.Send.held, p.Send.busy = p.Send.held, nil, false
	}
	var cmd tea.Cmd
	if msg.err != nil {
		cmd = kit.ErrCmd(msg.err)
	} else {
		if mine {
			p.Send = nil
		}
		text := "sent to " + msg.name
		if !msg.enter {
			text = "typed into " + msg.name + " (not submitted)"
		}
		cmd = tea.Batch(func() tea.Msg { return kit.FlashMsg(text) }, p.Load())
	}
	cmds := []tea.Cmd{cmd}
	for _, m := range held {
		cmds = append(cmds, p.Update(m))
	}
	return tea.Batch(cmds...)
}

// sendView puts the input line under the list.
func (p *Pane) sendView(list string) string {
	st := p.m.Styles()
	lines := strings.Split(kit.FitHeight(list, p.h), "\n")
	if len(lines) < 3 {
		return list
	}
	lines = lines[:len(lines)-2]
	lines = append(lines, st.Muted.Render(strings.Repeat("─", max(0, p.w))), ansi.Truncate(p.Send.in.View(), p.w, "…"))
	return strings.Join(lines, "\n")
}
