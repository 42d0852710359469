package cli

import (
	"os"
	"os/exec"
	"testing"
)

// TestWorkspaceTerminalInTmux runs scripts/workspace/keys-e2e.sh: the real
// binary in tmux; a shell started from the Workspaces pane has the pane's
// size, echoes `echo ABC xyz ~!@#$%^&*()_+ é` exactly through the pane
// attach, and killing it from the pane leaves no process behind.
func TestWorkspaceTerminalInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and drives it in tmux")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	t.Parallel() // own tmux server, work folder and ports
	cmd := exec.Command("bash", "scripts/workspace/keys-e2e.sh")
	cmd.Dir = "../.." // the scripts run from the repository root
	// The binaries this run already built, instead of building them again.
	cmd.Env = append(os.Environ(), "ALICE_BIN="+buildAlice(t), "MOCKLLM_BIN="+buildMockLLM(t))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("keys e2e failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
