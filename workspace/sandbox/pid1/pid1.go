// Package pid1 is the workspace sandbox's init: pid 1 of a sandboxed
// session's pid namespace. It hides what the spec says to hide, starts the
// session's program, forwards termination signals to it, reaps every
// process reparented to it, and exits with the program's status.
//
// The sandbox (package sandbox) starts alice's own executable with Env
// set; this package's init function sees it and runs the init instead of
// the program's main. Go runs a package's init function as soon as every
// package it imports is initialised and no package that sorts before it is
// ready, so this package imports only the runtime's first packages (os,
// os/signal, syscall, time): its init runs before the heavy tables of the
// rest of alice (protobuf descriptors, HTML entities…) are built. An init
// then costs about what a minimal Go program costs, for every session.
// For the same reason the spec travels in a small length-prefixed
// encoding (spec.go), not JSON, and paths are handled here by hand.
package pid1

import "os"

// Env is the environment variable that makes a process that imports this
// package the sandbox init; its value is the encoded Spec. The program's
// environment never has it.
const Env = "ALICE_SANDBOX_INIT"

// ExitSetupFailed is the init's exit status when the sandbox could not be
// set up (the reason is on its stderr); the program never ran then.
const ExitSetupFailed = 121

// init makes any program that imports this package the sandbox init when
// the sandbox started it (Env is set): it runs the init and exits before
// the program's own main (or a test binary's tests) could run. This is
// the one package-level side effect alice allows.
func init() {
	v, ok := os.LookupEnv(Env)
	if !ok {
		return
	}
	os.Exit(run(v))
}

// fail prints the reason the init could not go on and returns
// ExitSetupFailed.
func fail(msg string) int {
	_, _ = os.Stderr.WriteString("alice sandbox: " + msg + "\n")
	return ExitSetupFailed
}

// WithoutEnv is env without the init's marker.
func WithoutEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !hasPrefix(kv, Env+"=") {
			out = append(out, kv)
		}
	}
	return out
}
