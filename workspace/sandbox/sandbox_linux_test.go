package sandbox

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/alice-trading/alice/core/proctree/proctreetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// needSandbox skips when this kernel refuses the namespaces, with the
// probe's reason.
func needSandbox(t *testing.T) {
	t.Helper()
	if err := Probe(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
}

// tree is a hidden dir with a secret file and a kept dir beneath it.
func tree(t *testing.T) (hidden, secret, keep string) {
	t.Helper()
	hidden = t.TempDir()
	secret = filepath.Join(hidden, "accounts.json")
	require.NoError(t, os.WriteFile(secret, []byte(`{"autoApprove":false}`), 0o600))
	keep = filepath.Join(hidden, "workspaces", "w1")
	require.NoError(t, os.MkdirAll(keep, 0o755))
	return hidden, secret, keep
}

func run(t *testing.T, p Policy, dir, script string) (string, int) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "FROM_CALLER=1")
	require.NoError(t, Wrap(cmd, p))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		require.NoError(t, err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}

func TestProbe(t *testing.T) {
	if err := Probe(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
}

// TestWrapHides: the hidden dir's files are gone and it is read-only; the
// kept dir is the host's, writable; /proc shows the new pid namespace
// only; the caller's environment and directory reach the program, the
// marker does not.
func TestWrapHides(t *testing.T) {
	needSandbox(t)
	hidden, secret, keep := tree(t)
	out, code := run(t, Policy{Hide: []string{hidden}, Keep: []string{keep}}, keep, `
cat `+secret+` 2>/dev/null && echo READ
cat /proc/1/root`+secret+` 2>/dev/null && echo READ-VIA-INIT
echo '{"autoApprove":true}' > `+secret+` 2>/dev/null && echo WROTE
echo made > inside.txt && echo KEPT
echo pwd=$(pwd)
echo uid=$(id -u) gid=$(id -g)
ls /proc | grep -x `+strconv.Itoa(os.Getpid())+` && echo HOSTPID
echo from=$FROM_CALLER marker=${`+InitEnv+`:-none} gorace=${GORACE:-none} procs=${GOMAXPROCS:-none}
`)
	require.Equal(t, 0, code, out)
	assert.NotContains(t, out, "READ", "not directly, nor through the init's /proc entries")
	assert.NotContains(t, out, "WROTE")
	assert.NotContains(t, out, "HOSTPID")
	assert.Contains(t, out, "KEPT")
	assert.Contains(t, out, "pwd="+keep)
	assert.Contains(t, out, "from=1 marker=none gorace=none procs=none", "the init's own settings stay out of the program's environment")
	assert.Contains(t, out, "uid="+strconv.Itoa(os.Getuid())+" gid="+strconv.Itoa(os.Getgid()), "the program runs as the caller")
	b, err := os.ReadFile(secret)
	require.NoError(t, err)
	assert.Equal(t, `{"autoApprove":false}`, string(b), "host file unchanged")
	b, err = os.ReadFile(filepath.Join(keep, "inside.txt"))
	require.NoError(t, err)
	assert.Equal(t, "made\n", string(b))
}

// TestRootCannotUnmount: the program cannot lift the hiding mount, even as
// root of its user namespace or of one it makes (locked mounts).
func TestRootCannotUnmount(t *testing.T) {
	needSandbox(t)
	if _, err := exec.LookPath("umount"); err != nil {
		t.Skip("no umount")
	}
	hidden, secret, keep := tree(t)
	out, _ := run(t, Policy{Hide: []string{hidden}, Keep: []string{keep}}, keep,
		`umount -l `+hidden+` 2>&1; mount -o remount,rw `+hidden+` 2>&1; cat `+secret+` 2>/dev/null && echo READ; `+
			`unshare -Urm sh -c "umount -l `+hidden+`; cat `+secret+`" 2>/dev/null && echo READ-NESTED; echo done`)
	assert.Contains(t, out, "done")
	assert.NotContains(t, out, "READ", out)
}

func TestExitStatus(t *testing.T) {
	needSandbox(t)
	hidden, _, keep := tree(t)
	p := Policy{Hide: []string{hidden}, Keep: []string{keep}}
	_, code := run(t, p, keep, "exit 3")
	assert.Equal(t, 3, code)
	_, code = run(t, p, keep, "kill -TERM $$")
	assert.Equal(t, 128+int(syscall.SIGTERM), code)
}

// TestSignalForwarded: SIGTERM to the init reaches the program, whose exit
// status comes back; a daemon it started with a clean environment in a
// session of its own does not outlive it.
func TestSignalForwarded(t *testing.T) {
	needSandbox(t)
	hidden, _, keep := tree(t)
	mark := proctreetest.SleepMark()
	cmd := exec.Command("/bin/sh", "-c", `env -i setsid sleep `+mark+` </dev/null >/dev/null 2>&1 & trap 'exit 7' TERM; echo ready; while :; do sleep 0.05; done`)
	cmd.Dir = keep
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	cmd.Stdout = pw
	require.NoError(t, Wrap(cmd, Policy{Hide: []string{hidden}, Keep: []string{keep}}))
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	_ = pw.Close()
	buf := make([]byte, 6)
	_, err = pr.Read(buf)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(proctreetest.Sleepers(mark)) > 0 }, 5*time.Second, 20*time.Millisecond, "daemon started")
	start := time.Now()
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	_ = cmd.Wait()
	assert.Equal(t, 7, cmd.ProcessState.ExitCode(), "the program's own TERM trap ran: forwarded")
	t.Logf("ended %s after SIGTERM", time.Since(start))
	assert.Eventually(t, func() bool { return len(proctreetest.Sleepers(mark)) == 0 }, 20*time.Second, 20*time.Millisecond, "daemon gone with the sandbox")
}

func TestWrapRefusesEmptyPolicy(t *testing.T) {
	assert.Error(t, Wrap(exec.Command("/bin/true"), Policy{}))
}

// TestLeftoversGetSIGTERM: what the program left running when it exits
// gets SIGTERM (and time to act on it) before the namespace ends.
func TestLeftoversGetSIGTERM(t *testing.T) {
	needSandbox(t)
	hidden, _, keep := tree(t)
	start := time.Now()
	_, code := run(t, Policy{Hide: []string{hidden}, Keep: []string{keep}}, keep,
		`(trap 'echo termed > left.txt; exit 0' TERM; while :; do sleep 0.05; done) & sleep 0.2; exit 4`)
	assert.Equal(t, 4, code)
	t.Logf("ended %s after start", time.Since(start))
	b, err := os.ReadFile(filepath.Join(keep, "left.txt"))
	require.NoError(t, err, "the background job got SIGTERM")
	assert.Equal(t, "termed\n", string(b))
}

// TestReadOnlyPaths: alice's executable and its service unit are shown but
// cannot be changed from a session — neither written, nor replaced by a
// rename, nor unmounted — so no code planted there runs later outside.
func TestReadOnlyPaths(t *testing.T) {
	needSandbox(t)
	hidden, _, keep := tree(t)
	bin := filepath.Join(t.TempDir(), "alice")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\necho real\n"), 0o755))
	unitDir := filepath.Join(t.TempDir(), "systemd", "user")
	require.NoError(t, os.MkdirAll(unitDir, 0o755))
	unit := filepath.Join(unitDir, "alice.service")
	require.NoError(t, os.WriteFile(unit, []byte("ExecStart=alice serve\n"), 0o644))
	systemd := filepath.Dir(unitDir)
	out, code := run(t, Policy{Hide: []string{hidden}, Keep: []string{keep}, ReadOnly: []string{bin, systemd, filepath.Join(t.TempDir(), "absent")}}, keep,
		`cat `+bin+` >/dev/null && echo readable; `+
			`mkdir `+filepath.Join(systemd, "user.control")+` 2>/dev/null && echo LEAK-user-control; `+
			`mkdir `+unit+`.d 2>/dev/null && echo LEAK-drop-in; `+
			`echo evil >> `+bin+` 2>/dev/null && echo LEAK-write; `+
			`echo evil > `+bin+`.new 2>/dev/null; mv -f `+bin+`.new `+bin+` 2>/dev/null && echo LEAK-rename; `+
			`echo ExecStart=evil > `+unit+` 2>/dev/null && echo LEAK-unit; `+
			`umount `+bin+` 2>/dev/null && echo LEAK-umount; exit 0`)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "readable")
	assert.NotContains(t, out, "LEAK")
	b, err := os.ReadFile(bin)
	require.NoError(t, err)
	assert.Equal(t, "#!/bin/sh\necho real\n", string(b))
	b, err = os.ReadFile(unit)
	require.NoError(t, err)
	assert.Equal(t, "ExecStart=alice serve\n", string(b))
}

// TestAncestorsCannotBeMovedAway: a session cannot rename a directory on
// the way to a protected file or a hidden directory and plant a fresh one
// at the old path (black-box: `mv ~/.config/systemd/user ~/x; mkdir …`
// replaced alice.service; moving the register's parent away emptied it).
func TestAncestorsCannotBeMovedAway(t *testing.T) {
	needSandbox(t)
	hidden, secret, keep := tree(t)
	top := t.TempDir()
	binDir := filepath.Join(top, "opt", "bin")
	require.NoError(t, os.MkdirAll(binDir, 0o755))
	bin := filepath.Join(binDir, "alice")
	require.NoError(t, os.WriteFile(bin, []byte("real\n"), 0o755))
	out, code := run(t, Policy{Hide: []string{hidden}, Keep: []string{keep}, ReadOnly: []string{bin}}, keep,
		`mv `+binDir+` `+binDir+`.old 2>/dev/null && echo LEAK-bindir; `+
			`mv `+filepath.Join(top, "opt")+` `+filepath.Join(top, "opt.old")+` 2>/dev/null && echo LEAK-opt; `+
			`mv `+hidden+` `+hidden+`.old 2>/dev/null && echo LEAK-hidden; `+
			`mv `+filepath.Dir(hidden)+` `+filepath.Dir(hidden)+`.old 2>/dev/null && echo LEAK-hidden-parent; `+
			`touch `+filepath.Join(top, "still-writable")+` && echo writable; exit 0`)
	assert.Equal(t, 0, code, out)
	assert.NotContains(t, out, "LEAK")
	assert.Contains(t, out, "writable", "the directories stay writable; only moving them is refused")
	b, err := os.ReadFile(bin)
	require.NoError(t, err)
	assert.Equal(t, "real\n", string(b))
	_, err = os.Stat(secret)
	require.NoError(t, err, "the hidden directory is where it was")
}

// shortTempDir is a temporary directory with a short path: a unix
// socket's path is at most 107 bytes.
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sb")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// serveUnix listens on the unix socket addr (a path, or @name for an
// abstract one) until the test ends, and writes reply and a newline to
// each connection.
func serveUnix(t *testing.T, addr, reply string) {
	t.Helper()
	l, err := net.Listen("unix", addr)
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte(reply + "\n"))
			_ = c.Close()
		}
	}()
}

// TestPrivateSocketDirs: a private directory (the user's tmux sockets)
// shows empty and writable, with only the kept socket (the ssh agent's)
// from outside: a session cannot reach the user's tmux server and have
// it run a command outside the sandbox (black-box: `tmux -S
// /tmp/tmux-0/default new-window 'cat …/operator.key'`), and what it
// makes there stays in the sandbox.
func TestPrivateSocketDirs(t *testing.T) {
	needSandbox(t)
	hidden, _, keep := tree(t)
	priv := shortTempDir(t)
	server, agent := filepath.Join(priv, "default"), filepath.Join(priv, "agent.sock")
	serveUnix(t, server, "hello from default")
	serveUnix(t, agent, "hello from agent.sock")
	out, code := run(t, Policy{Hide: []string{hidden}, Private: []string{priv}, Keep: []string{keep, agent}}, keep, `
ls -A `+priv+` | tr '\n' ' ' | sed 's/^/LIST: /'; echo
test -e `+server+` && echo LEAK-server
test -S `+agent+` && echo AGENT-KEPT
echo mine > `+priv+`/made && echo WROTE
stat -c 'MODE %a' `+priv+`
exit 0`)
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "LIST: agent.sock \n")
	assert.NotContains(t, out, "LEAK")
	assert.Contains(t, out, "AGENT-KEPT")
	assert.Contains(t, out, "WROTE")
	assert.Contains(t, out, "MODE 700")
	_, err := os.Stat(filepath.Join(priv, "made"))
	assert.True(t, os.IsNotExist(err), "what the session made stays in the sandbox")
	// The kept socket is the real one: a connection from inside reaches
	// the listener outside.
	if _, err := exec.LookPath("python3"); err == nil {
		out, _ := run(t, Policy{Hide: []string{hidden}, Private: []string{priv}, Keep: []string{keep, agent}}, keep,
			`python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("`+agent+`"); print(s.recv(64).decode())'`)
		assert.Contains(t, out, "hello from agent.sock")
	}
}

// TestMaskedSocket: a socket at a path of its own (the tmux alice runs
// in, started with -S) is covered by /dev/null: connecting is refused,
// and the session cannot remove the cover.
func TestMaskedSocket(t *testing.T) {
	needSandbox(t)
	hidden, _, keep := tree(t)
	dir := shortTempDir(t)
	sock := filepath.Join(dir, "t1.sock")
	serveUnix(t, sock, "LEAK-reached")
	out, code := run(t, Policy{Hide: []string{hidden}, Mask: []string{sock, filepath.Join(dir, "absent")}, Keep: []string{keep}}, keep, `
test -S `+sock+` && echo LEAK-socket
test -c `+sock+` && echo MASKED
rm -f `+sock+` 2>/dev/null && echo LEAK-removed
umount `+sock+` 2>/dev/null && echo LEAK-umount
exit 0`)
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "MASKED")
	assert.NotContains(t, out, "LEAK")
	fi, err := os.Stat(sock)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSocket, fi.Mode().Type(), "the socket outside is untouched")
	if _, err := exec.LookPath("python3"); err == nil {
		out, _ := run(t, Policy{Hide: []string{hidden}, Mask: []string{sock}, Keep: []string{keep}}, keep,
			`python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("`+sock+`")' 2>&1 | tail -1`)
		assert.Contains(t, out, "Connection refused")
	}
}

// TestAbstractSocketsOutOfReach: on a kernel with Landlock scopes (ABI 6,
// Linux 6.12), an abstract unix socket made outside the sandbox (an X
// display, a bus on an abstract address) refuses a program inside, while
// one the program makes itself works.
func TestAbstractSocketsOutOfReach(t *testing.T) {
	needSandbox(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 connects from inside: not installed")
	}
	hidden, _, keep := tree(t)
	name := "alice-test-" + strconv.Itoa(os.Getpid())
	serveUnix(t, "@"+name, "LEAK-reached")
	out, code := run(t, Policy{Hide: []string{hidden}, Keep: []string{keep}}, keep, `python3 -c '
import socket
s = socket.socket(socket.AF_UNIX)
try:
    s.connect("\0`+name+`")
    print(s.recv(64).decode())
except OSError as e:
    print("REFUSED", e.errno)
own = socket.socket(socket.AF_UNIX); own.bind("\0`+name+`-inside"); own.listen(1)
c = socket.socket(socket.AF_UNIX); c.connect("\0`+name+`-inside"); print("OWN-OK")
'`)
	require.Equal(t, 0, code, out)
	if strings.Contains(out, "LEAK-reached") {
		if abi := landlockABI(); abi < 6 {
			t.Skipf("Landlock ABI %d here: abstract sockets are not scoped", abi)
		}
	}
	assert.NotContains(t, out, "LEAK")
	assert.Contains(t, out, "REFUSED 1") // EPERM
	assert.Contains(t, out, "OWN-OK")
}

// landlockABI is the kernel's Landlock ABI version (0: none).
func landlockABI() int {
	abi, _, errno := syscall.Syscall(444, 0, 0, 1)
	if errno != 0 {
		return 0
	}
	return int(abi)
}
