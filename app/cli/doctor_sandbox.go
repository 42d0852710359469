package cli

import (
	"strings"

	"github.com/alice-trading/alice/config"
)

// checkSandbox says whether workspace sessions run where alice's own
// directories are hidden (workspace/sandbox), what they cannot see, or
// why not.
func (d *doctorRun) checkSandbox() checkResult {
	r := checkResult{Name: "workspace sandbox"}
	mode := config.SandboxAuto
	if d.configOK {
		if ws, err := d.store.Workspaces(); err == nil {
			mode = ws.Sandbox
		}
	}
	if mode == config.SandboxOff {
		r.State, r.Detail = checkSkip, "off (workspaces.json sandbox: off): sessions can read and change alice's config and data"
		r.Fix = `set "sandbox": "auto" in workspaces.json`
		return r
	}
	if d.deps.sandboxProbe == nil {
		r.State, r.Detail = checkSkip, "not checked"
		return r
	}
	if err := d.deps.sandboxProbe(); err != nil {
		r.Fix = "allow unprivileged user namespaces (e.g. sysctl kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu)"
		if mode == config.SandboxOn {
			r.State, r.Detail = checkFail, "unavailable, and workspaces.json sandbox: on, so sessions will not start: "+err.Error()
			return r
		}
		r.State, r.Detail = checkSkip, "off: sessions run unsandboxed: "+err.Error()
		return r
	}
	r.State, r.Detail = checkOK, "on ("+mode+"): sessions cannot see "+strings.Join(d.paths.Private(), ", ")+" (only their workspace)"
	return r
}
