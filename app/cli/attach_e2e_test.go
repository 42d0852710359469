package cli

import (
	"os/exec"
	"testing"
)

// TestAttachDetachInTmux runs scripts/attach/attach-e2e.sh: alice serve,
// clients that detach and attach again (a workspace counter keeps running),
// two clients of different sizes sharing one approval, OpenSSH over TCP
// with an authorized key (a wrong key refused), and a quit that stops the
// core with nothing left behind.
func TestAttachDetachInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and drives it in tmux")
	}
	for _, bin := range []string{"tmux", "ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("%s not installed", bin)
		}
	}
	cmd := exec.Command("bash", "scripts/attach/attach-e2e.sh")
	cmd.Dir = "../.." // the scripts run from the repository root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("attach e2e failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
