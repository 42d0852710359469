package cli

import (
	"os"
	"os/exec"
	"testing"
)

// TestTUIEndToEndInTmux runs scripts/tui/e2e.sh: the real binary in tmux,
// chat → stage → approve → position, then a shell workspace attach/detach.
func TestTUIEndToEndInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and drives it in tmux")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	t.Parallel() // own tmux server, work folder and ports
	cmd := exec.Command("bash", "scripts/tui/e2e.sh")
	cmd.Dir = "../.." // the scripts run from the repository root
	// The binaries this run already built, instead of building them again.
	cmd.Env = append(os.Environ(), "ALICE_BIN="+buildAlice(t), "MOCKLLM_BIN="+buildMockLLM(t))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("e2e failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// TestChannelsEndToEndInTmux runs scripts/tui/channels-e2e.sh: new channel
// → message → switch back through the ctrl+s browser, which lists both
// channels with their titles; rename a session there.
func TestChannelsEndToEndInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and drives it in tmux")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	cmd := exec.Command("bash", "scripts/tui/channels-e2e.sh")
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("channels e2e failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
