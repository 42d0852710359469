//go:build !linux

package pid1

// run refuses: the sandbox needs Linux namespaces, and nothing starts an
// init elsewhere.
func run(string) int { return fail("the workspace sandbox is supported on Linux only") }
