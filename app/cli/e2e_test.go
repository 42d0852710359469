package cli

import (
	"os"
	"os/exec"
	"testing"
)

// TestScriptsInTmux runs the tmux-driven end-to-end scripts against the
// real binary (built once for the run and handed over as ALICE_BIN).
// Each script starts its own tmux server, work folder and ports.
func TestScriptsInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and drives it in tmux")
	}
	for _, c := range []struct {
		name, script string
		needs        []string
		parallel     bool
	}{
		// chat → stage → approve → position, then a shell workspace
		// attach/detach.
		{"tui", "scripts/tui/e2e.sh", []string{"tmux"}, true},
		// new channel → message → switch back through the ctrl+s browser,
		// which lists both channels with their titles; rename a session.
		{"channels", "scripts/tui/channels-e2e.sh", []string{"tmux"}, false},
		// a shell started from the Workspaces pane has the pane's size,
		// echoes `echo ABC xyz ~!@#$%^&*()_+ é` exactly through the pane
		// attach, and killing it from the pane leaves no process behind.
		{"workspace-keys", "scripts/workspace/keys-e2e.sh", []string{"tmux"}, true},
		// grow 100x30 → 140x40, zoom a session that sets modes, resize,
		// detach the client; attach again, shrink, quit: nothing of alice
		// left on the outer screen and every mode off, both times.
		{"restore", "scripts/tui/restore-e2e.sh", []string{"tmux"}, true},
		// alice serve; clients that detach and attach again (a workspace
		// counter keeps running); two clients of different sizes sharing
		// one approval; OpenSSH over TCP with an authorized key (a wrong
		// key refused); a quit that stops the core, nothing left behind.
		{"attach", "scripts/attach/attach-e2e.sh", []string{"tmux", "ssh", "ssh-keygen"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, bin := range c.needs {
				if _, err := exec.LookPath(bin); err != nil {
					t.Skipf("%s not installed", bin)
				}
			}
			if c.parallel {
				t.Parallel()
			}
			cmd := exec.Command("bash", c.script)
			cmd.Dir = "../.." // the scripts run from the repository root
			cmd.Env = append(os.Environ(), "ALICE_BIN="+buildAlice(t), "MOCKLLM_BIN="+buildMockLLM(t))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s failed: %v\n%s", c.script, err, out)
			}
			t.Logf("%s", out)
		})
	}
}
