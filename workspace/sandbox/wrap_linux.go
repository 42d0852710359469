package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/alice-trading/alice/workspace/sandbox/pid1"
)

// selfExe is the running executable, even after its file was replaced or
// removed (an upgrade while alice runs): the init is always this binary.
const selfExe = "/proc/self/exe"

// Wrap rewrites cmd, built but not started, to run its program in the
// sandbox p describes: cmd then starts the sandbox init (this executable),
// which starts the program with cmd's Dir, Env and stdio. SysProcAttr is
// kept (pty.Start's Setsid/Setctty, a process group, a parent-death signal
// all apply to the init) and gets the new namespaces and identity user and
// group mappings. Call it after the environment is complete
// (proctree.TagCommand): later changes reach the init only.
func Wrap(cmd *exec.Cmd, p Policy) error {
	return wrap(cmd, pid1.Spec{Hide: cleanPaths(p.Hide), Private: cleanPaths(p.Private), Mask: cleanPaths(p.Mask), Keep: cleanPaths(p.Keep), ReadOnly: cleanPaths(p.ReadOnly)})
}

func wrap(cmd *exec.Cmd, s pid1.Spec) error {
	if cmd.Process != nil {
		return errors.New("sandbox: command already started")
	}
	if cmd.Err != nil {
		return cmd.Err
	}
	if len(s.Hide) == 0 {
		return errors.New("sandbox: nothing to hide")
	}
	s.Path, s.Args, s.Dir = cmd.Path, cmd.Args, cmd.Dir
	s.UID, s.GID = os.Getuid(), os.Getgid()
	if len(s.Args) == 0 {
		s.Args = []string{cmd.Path}
	}
	if s.Dir != "" {
		if a, err := filepath.Abs(s.Dir); err == nil {
			s.Dir = a
		}
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	env = pid1.WithoutEnv(env)
	for _, kv := range initOnlyEnv() {
		if name, _, _ := strings.Cut(kv, "="); !hasEnv(env, name) {
			env = append(env, kv)
			s.InitOnly = append(s.InitOnly, kv)
		}
	}
	cmd.Env = append(env, InitEnv+"="+s.Encode())
	cmd.Path = selfExe
	cmd.Args = []string{"alice-sandbox", filepath.Base(s.Path)}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	a := cmd.SysProcAttr
	a.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID
	// The init is root of its user namespace (its capabilities there
	// survive the exec only as uid 0); the program's own namespace maps
	// that back to the caller's uid and gid, so to the program every id is
	// what it is outside.
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
	a.GidMappingsEnableSetgroups = false
	return nil
}

// Probe sets up a sandbox without a program — a temporary directory is
// hidden, one beneath it kept — and reports why it could not (nil when
// it can). It takes a few milliseconds; callers cache the answer.
func Probe() error {
	dir, err := os.MkdirTemp("", "alice-sandbox-probe-")
	if err != nil {
		return fmt.Errorf("sandbox probe: %w", err)
	}
	defer func() { _ = os.RemoveAll(dir) }()
	keep := filepath.Join(dir, "keep")
	secret := filepath.Join(dir, "secret")
	if err := os.Mkdir(keep, 0o700); err != nil {
		return fmt.Errorf("sandbox probe: %w", err)
	}
	if err := os.WriteFile(secret, nil, 0o600); err != nil {
		return fmt.Errorf("sandbox probe: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/true")
	cmd.Dir = keep
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := wrap(cmd, pid1.Spec{Hide: []string{dir}, Keep: []string{keep}, Probe: true, Absent: []string{secret}}); err != nil {
		return err
	}
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("sandbox unavailable: %s", msg)
	}
	return nil
}

// initOnlyEnv are the init's own runtime settings, left out of the
// program's environment (unless the caller set them: then both get the
// caller's). One processor is all the init needs, and each more costs
// memory in every session (about 150 KB from 1 to 2; more on a big
// machine). A race-enabled build's init would sleep 1 s at exit (the race
// runtime's atexit_sleep_ms) after every sandboxed program.
func initOnlyEnv() []string {
	env := []string{"GOMAXPROCS=1"}
	if raceBuild {
		env = append(env, "GORACE=atexit_sleep_ms=0")
	}
	return env
}

func hasEnv(env []string, name string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, name+"=") {
			return true
		}
	}
	return false
}
