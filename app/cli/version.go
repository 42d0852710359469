package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set at release time with -ldflags "-X …/app/cli.version=… -X …/app/cli.commit=…
// -X …/app/cli.date=…"; when empty they come from the binary's build info
// (module version for `go install …@vX`, VCS settings for a checkout).
var (
	version = ""
	commit  = ""
	date    = ""
)

// versionInfo is what `alice --version` prints.
type versionInfo struct {
	Version, Commit, Date, Go string
	Modified                  bool
}

// buildVersion merges the ldflags overrides with runtime/debug build info.
func buildVersion() versionInfo {
	v := versionInfo{Version: version, Commit: commit, Date: date, Go: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if v.Commit == "" {
					v.Commit = s.Value
				}
			case "vcs.time":
				if v.Date == "" {
					v.Date = s.Value
				}
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	if len(v.Commit) > 12 {
		v.Commit = v.Commit[:12]
	}
	return v
}

func (v versionInfo) String() string {
	c := v.Commit
	if c == "" {
		c = "unknown"
	}
	if v.Modified {
		c += "-dirty"
	}
	d := v.Date
	if d == "" {
		d = "unknown"
	}
	return fmt.Sprintf("alice %s (commit %s, built %s, %s)", v.Version, c, d, v.Go)
}

func runVersion(e *env, _ []string) int {
	fmt.Fprintln(e.stdout, buildVersion().String())
	return 0
}
