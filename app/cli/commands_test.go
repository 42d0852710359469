package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDispatchTable(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		out  string
		err  string
	}{
		{"help lists every visible command", []string{"--help"}, 0, "alice completion bash|zsh|fish", ""},
		{"version flag", []string{"--version"}, 0, "alice ", ""},
		{"version command", []string{"version"}, 0, "(commit ", ""},
		{"flag after command", []string{"version", "--debug"}, 0, "go1.", ""},
		{"unknown command", []string{"bogus"}, 2, "", `unknown command "bogus"`},
		{"unknown flag", []string{"check", "--nope"}, 2, "", "flag provided but not defined: -nope"},
		{"bad completion shell", []string{"completion", "tcsh"}, 2, "", `unknown argument "tcsh"`},
		{"completion needs a shell", []string{"completion"}, 2, "", "usage: alice completion"},
		{"man page", []string{"man"}, 0, ".SH COMMANDS", ""},
		{"global flag before command", []string{"--debug", "version"}, 0, "(commit ", ""},
		{"unknown command after a global flag", []string{"--home", "x", "bogus"}, 2, "", `unknown command "bogus"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			require.Equal(t, tc.code, run(tc.args, &out, &errb), "stderr: %s", errb.String())
			require.Contains(t, out.String(), tc.out)
			require.Contains(t, errb.String(), tc.err)
		})
	}
}

// Global flags work the same before the command as after it: "alice
// --home DIR check" checks DIR's config, like "alice check --home DIR".
func TestGlobalFlagsBeforeCommand(t *testing.T) {
	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, "config"), 0o700))
	// a bad file, so a check of the wrong home (the default one) would differ
	require.NoError(t, os.WriteFile(filepath.Join(home, "config", "accounts.json"), []byte(`[{"id":"x","presetId":"ibkr-tws","guards":[],"presetConfig":{"port":"74970"}}]`), 0o600))
	var want, wantErr bytes.Buffer
	wantCode := run([]string{"check", "--home", home}, &want, &wantErr)
	require.Equal(t, 1, wantCode, wantErr.String())
	for _, args := range [][]string{
		{"--home", home, "check"},
		{"--home=" + home, "check"},
		{"-home", home, "--debug", "check"},
		{"--debug", "check", "--home", home},
	} {
		var out, errb bytes.Buffer
		require.Equal(t, wantCode, run(args, &out, &errb), "%v: %s", args, errb.String())
		require.Equal(t, want.String(), out.String(), "%v", args)
		require.Equal(t, wantErr.String(), errb.String(), "%v", args)
	}
}

func TestVersionFromLdflagsWins(t *testing.T) {
	old := [3]string{version, commit, date}
	t.Cleanup(func() { version, commit, date = old[0], old[1], old[2] })
	version, commit, date = "v1.2.3", "0123456789abcdef0123", "2026-11-23T00:00:00Z"
	v := buildVersion()
	require.Equal(t, "v1.2.3", v.Version)
	require.Equal(t, "0123456789ab", v.Commit, "commit shortened to 12")
	require.Contains(t, v.String(), "built 2026-11-23T00:00:00Z")
}

// TestBashCompletionLoads sources the generated script in a real bash and
// asks it to complete, as a user's shell would.
func TestBashCompletionLoads(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"completion", "bash"}, &out, &errb))
	script := filepath.Join(t.TempDir(), "alice.bash")
	require.NoError(t, os.WriteFile(script, out.Bytes(), 0o600))
	probe := `source "$1"; complete -p alice
COMP_WORDS=(alice com); COMP_CWORD=1; _alice; echo "top: ${COMPREPLY[*]}"
COMP_WORDS=(alice completion ""); COMP_CWORD=2; _alice; echo "shells: ${COMPREPLY[*]}"
COMP_WORDS=(alice serve --ho); COMP_CWORD=2; _alice; echo "flags: ${COMPREPLY[*]}"`
	got, err := exec.Command(bash, "--norc", "-c", probe, "bash", script).CombinedOutput()
	require.NoError(t, err, string(got))
	s := string(got)
	require.Contains(t, s, "complete -F _alice alice")
	require.Contains(t, s, "top: completion")
	require.Contains(t, s, "shells: bash zsh fish")
	require.Contains(t, s, "flags: --home")
}

func TestZshAndFishCompletionMentionEveryCommand(t *testing.T) {
	for _, sh := range []string{"zsh", "fish"} {
		var out, errb bytes.Buffer
		require.Equal(t, 0, run([]string{"completion", sh}, &out, &errb))
		for _, c := range visibleCommands() {
			require.Contains(t, out.String(), c.Name, sh)
		}
		require.True(t, strings.Contains(out.String(), "home"), sh)
	}
	if fish, err := exec.LookPath("fish"); err == nil {
		var out, errb bytes.Buffer
		run([]string{"completion", "fish"}, &out, &errb)
		cmd := exec.Command(fish, "--no-config", "-c", "source")
		cmd.Stdin = &out
		got, err := cmd.CombinedOutput()
		require.NoError(t, err, string(got))
	}
}
