// Package sandbox runs a workspace session's program where it cannot see
// alice's own directories (its config, data and logs), on Linux with
// unprivileged namespaces.
//
// Wrap rewrites a built exec.Cmd so that it starts alice's own executable
// (/proc/self/exe: alice, or a test binary) in new user, mount and pid
// namespaces, with the sandbox spec in its environment (InitEnv). This
// package imports package pid1, whose init function sees that marker
// before the rest of the program starts and becomes the sandbox init: pid 1
// of the new pid namespace. It covers each hidden directory with an empty
// read-only tmpfs (binding the kept directories, such as the workspace's
// own, back into it), mounts a fresh /proc (alice's pid, and so
// /proc/<alice>/root, is not reachable from inside), and then starts the
// real program as its child with the environment, directory and stdio it
// was given. It forwards termination signals to the program, reaps every
// process reparented to it, and exits with the program's status; when it
// exits the kernel ends every process left in the namespace, so nothing a
// session started survives it, however it detached.
//
// The program itself runs in one more user namespace nested in the
// sandbox's, so the mounts that hide the directories are locked: even a
// program running as root in its namespace cannot unmount them.
//
// Probe runs the same set-up without a program, to learn whether the
// kernel allows it; callers cache its answer. Elsewhere than Linux Wrap
// and Probe report ErrUnsupported.
package sandbox

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/alice-trading/alice/workspace/sandbox/pid1"
)

// InitEnv is the environment variable that makes a process that imports
// this package the sandbox init (package pid1); its value is the spec.
// Wrap puts it in the init's environment only: the program's environment
// never has it.
const InitEnv = pid1.Env

// ExitSetupFailed is the init's exit status when the sandbox could not be
// set up (the reason is on its stderr); the program never ran then.
const ExitSetupFailed = pid1.ExitSetupFailed

// ErrUnsupported is returned where the sandbox cannot exist (not Linux).
var ErrUnsupported = errors.New("workspace sandbox is supported on Linux only")

// Policy says what a sandboxed program cannot see.
type Policy struct {
	// Hide are directories shown empty and read-only inside the sandbox.
	// A path that does not exist is left alone.
	Hide []string
	// Private are directories covered by an empty writable tmpfs of the
	// sandbox's own (the user's tmux and runtime sockets): the program
	// can make its own there but cannot reach what is outside. A path
	// that does not exist is left alone.
	Private []string
	// Mask are files covered by /dev/null (a tmux server's socket at a
	// path of its own, -S). A path that does not exist is left alone.
	Mask []string
	// Keep are directories beneath a hidden or private one that stay
	// visible and writable as they are (the workspace's own directory),
	// or files beneath a private one (the ssh agent's socket).
	Keep []string
	// ReadOnly are files or directories shown as they are but read-only
	// (alice's own executable, its service unit): code a session leaves
	// there would run later outside any sandbox. A path that does not
	// exist is left alone.
	ReadOnly []string
}

// Empty reports that p hides nothing.
func (p Policy) Empty() bool { return len(p.Hide) == 0 }

// String names what p hides, for logs and doctor.
func (p Policy) String() string {
	s := "hides " + strings.Join(p.Hide, ", ")
	if len(p.Keep) > 0 {
		s += " (keeps " + strings.Join(p.Keep, ", ") + ")"
	}
	return s
}

// cleanPaths makes paths absolute and clean, dropping empty ones.
func cleanPaths(ps []string) []string {
	var out []string
	for _, p := range ps {
		if p == "" {
			continue
		}
		if a, err := filepath.Abs(p); err == nil {
			p = a
		}
		out = append(out, filepath.Clean(p))
	}
	return out
}
