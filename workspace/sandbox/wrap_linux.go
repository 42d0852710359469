package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
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
	return wrap(cmd, spec{Hide: cleanPaths(p.Hide), Keep: cleanPaths(p.Keep), ReadOnly: cleanPaths(p.ReadOnly)})
}

func wrap(cmd *exec.Cmd, s spec) error {
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
	env = withoutInitEnv(env)
	if raceBuild && !hasEnv(env, "GORACE") {
		env = append(env, raceEnv)
		s.InitOnly = raceEnv
	}
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	cmd.Env = append(env, InitEnv+"="+string(b))
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
	if err := wrap(cmd, spec{Hide: []string{dir}, Keep: []string{keep}, Probe: true, Absent: []string{secret}}); err != nil {
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

// raceEnv is the init's setting in a race-enabled build (raceBuild).
const raceEnv = "GORACE=atexit_sleep_ms=0"

func hasEnv(env []string, name string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, name+"=") {
			return true
		}
	}
	return false
}
