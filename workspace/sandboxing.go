package workspace

import (
	"fmt"
	"os/exec"
	"slices"
	"sync"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/workspace/sandbox"
)

// SandboxOptions say what a session's or one-shot run's programs cannot
// see (workspace/sandbox): alice's own directories, minus the workspace's.
type SandboxOptions struct {
	// Hide are alice's config, data and logs directories. Empty: no
	// sandbox (tests that build a Manager directly).
	Hide []string
	// Mode is workspaces.json "sandbox": config.SandboxAuto ("" too),
	// SandboxOn or SandboxOff.
	Mode string
	// Probe reports whether this kernel allows the sandbox (nil:
	// sandbox.Probe). Called once, when the manager is built.
	Probe func() error
	// HideEnv names the environment variables alice's own credentials
	// are read from (brokers' API keys, the Telegram bot token): they are
	// left out of every session's environment, sandbox or not, so an
	// agent cannot trade at the broker, or speak as the bot, around
	// alice's guards and approvals. Asked at each spawn (accounts come
	// and go); nil: none.
	HideEnv func() []string
	// HideMore are further directories to hide, asked at each spawn:
	// other alice homes of the same user (config.OtherHomes), which may
	// start after this one. Only with the sandbox on.
	HideMore func() []string
	// ReadOnly are files and directories a session sees but cannot change
	// (alice's executable, its service unit): what runs later outside
	// any sandbox. Only with the sandbox on.
	ReadOnly []string
}

// SandboxStatus is whether spawns run sandboxed.
type SandboxStatus struct {
	Mode string `json:"mode"`
	// On: every spawn hides Hidden (each keeps its workspace's directory).
	On     bool     `json:"on"`
	Hidden []string `json:"hidden,omitempty"`
	// Reason says why spawns are not sandboxed (mode off, no directories
	// to hide, or the probe's error).
	Reason string `json:"reason,omitempty"`
}

// sandboxState is the manager's one probe result.
type sandboxState struct {
	once   sync.Once
	status SandboxStatus
}

// Sandbox reports whether sessions and one-shot runs are sandboxed.
func (m *Manager) Sandbox() SandboxStatus {
	m.sandbox.once.Do(func() { m.sandbox.status = m.probeSandbox() })
	return m.sandbox.status
}

func (m *Manager) probeSandbox() SandboxStatus {
	o := m.opts.Sandbox
	st := SandboxStatus{Mode: o.Mode}
	if st.Mode == "" {
		st.Mode = config.SandboxAuto
	}
	switch {
	case st.Mode == config.SandboxOff:
		st.Reason = "turned off (workspaces.json sandbox: off)"
	case len(o.Hide) == 0:
		st.Reason = "no directories to hide"
	default:
		probe := o.Probe
		if probe == nil {
			probe = sandbox.Probe
		}
		if err := probe(); err != nil {
			st.Reason = err.Error()
		} else {
			st.On, st.Hidden = true, o.Hide
		}
	}
	switch {
	case st.On:
		m.log.Info("workspace sandbox on", "mode", st.Mode, "hidden", st.Hidden)
	case st.Mode == config.SandboxOn:
		m.log.Error("workspace sandbox required but unavailable: sessions will not start", "reason", st.Reason)
	case st.Mode == config.SandboxAuto && len(o.Hide) > 0:
		m.log.Warn("workspace sandbox unavailable: sessions run unsandboxed", "reason", st.Reason)
	default:
		m.log.Info("workspace sandbox off", "reason", st.Reason)
	}
	return st
}

// sandboxCmd runs cmd, built for ws, in the sandbox when it is on. With
// mode "on" and no sandbox it refuses, with the reason.
func (m *Manager) sandboxCmd(cmd *exec.Cmd, ws Workspace) error {
	st := m.Sandbox()
	if !st.On {
		if st.Mode == config.SandboxOn {
			return fmt.Errorf("workspace sandbox required (workspaces.json sandbox: on) but unavailable: %s", st.Reason)
		}
		return nil
	}
	hide := st.Hidden
	if f := m.opts.Sandbox.HideMore; f != nil {
		hide = append(slices.Clone(hide), f()...)
	}
	private, mask, keep := userSockets(cmd.Env) // usersockets.go
	return sandbox.Wrap(cmd, sandbox.Policy{Hide: hide, Private: private, Mask: mask, Keep: append([]string{ws.Dir}, keep...), ReadOnly: m.opts.Sandbox.ReadOnly})
}

// unsandboxedNote is the line shown at a session's start when the
// sandbox fell back ("auto" on a kernel that refuses it); "" otherwise.
func (m *Manager) unsandboxedNote() string {
	st := m.Sandbox()
	if st.On || st.Mode != config.SandboxAuto || len(m.opts.Sandbox.Hide) == 0 {
		return ""
	}
	return "unsandboxed: " + st.Reason
}
