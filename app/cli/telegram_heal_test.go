package cli

import (
	"os"
	"os/exec"
	"testing"
)

// TestTelegramHealsAgainstTheBotAPIEmulator runs scripts/telegram/heal.sh:
// the real binary starts with Telegram pointed at a closed port (serve's
// line, the log and doctor say so), the telegram-test-api emulator starts
// there, and /status must be answered within 30 s. Runs when the emulator
// is installed (scripts/telegram: npm ci, or integration.sh).
func TestTelegramHealsAgainstTheBotAPIEmulator(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs the Bot API emulator")
	}
	if _, err := os.Stat("../../scripts/telegram/node_modules/telegram-test-api"); err != nil {
		t.Skip("telegram-test-api not installed (cd scripts/telegram && npm ci)")
	}
	for _, bin := range []string{"node", "python3", "curl", "bc"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skip(bin + " not installed")
		}
	}
	cmd := exec.Command("bash", "scripts/telegram/heal.sh")
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("heal.sh failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
