package pid1

import (
	"syscall"
	"unsafe"
)

// Landlock (Linux 6.12+, ABI 6) scopes: a program in the sandbox cannot
// connect to an abstract unix socket made outside it (an X display, a
// session bus on an abstract address: programs that run what they are
// told), nor signal a process outside it. Path sockets are covered by the
// mounts (the user's socket directories, Spec.Private and Spec.Mask).
const (
	sysLandlockCreateRuleset = 444 // the same number on every Linux port Go has
	sysLandlockRestrictSelf  = 446

	landlockCreateRulesetVersion = 1 << 0
	landlockScopeAbstractUnix    = 1 << 0
	landlockScopeSignal          = 1 << 1
	landlockScopesABI            = 6
)

// landlockRulesetAttr is struct landlock_ruleset_attr up to ABI 6.
type landlockRulesetAttr struct {
	handledAccessFS  uint64
	handledAccessNet uint64
	scoped           uint64
}

// scope puts the calling thread (the init's, locked: its children inherit
// the domain) in a Landlock domain with those scopes. A kernel without
// them is left as it is: the sandbox's mounts do not depend on it.
// Reports whether the scopes apply.
func scope() bool {
	abi, _, errno := syscall.Syscall(sysLandlockCreateRuleset, 0, 0, landlockCreateRulesetVersion)
	if errno != 0 || int(abi) < landlockScopesABI {
		return false
	}
	attr := landlockRulesetAttr{scoped: landlockScopeAbstractUnix | landlockScopeSignal}
	fd, _, errno := syscall.Syscall(sysLandlockCreateRuleset, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return false
	}
	defer func() { _ = syscall.Close(int(fd)) }()
	_, _, errno = syscall.Syscall(sysLandlockRestrictSelf, fd, 0, 0)
	return errno == 0
}
