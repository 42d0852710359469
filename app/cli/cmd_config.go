package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/settings"
	"github.com/alice-trading/alice/config"
)

// runConfig is `alice config path|show|edit|schema [FILE]`, a thin surface
// over the settings service (the one the Settings pane and Telegram use).
func runConfig(e *env, args []string) int {
	if len(args) == 0 || len(args) > 2 {
		fmt.Fprintln(e.stderr, "usage: alice config path|show|edit|schema [FILE]")
		return 2
	}
	paths, err := config.ResolvePaths(e.home)
	if err != nil {
		return e.errorf("%v", err)
	}
	svc := app.NewSettings(config.NewStore(paths.Config), os.Getenv)
	file := ""
	if len(args) == 2 {
		if file, err = settings.FileName(args[1]); err != nil {
			return e.errorf("%v", err)
		}
	}
	switch args[0] {
	case "path":
		if file != "" {
			fmt.Fprintln(e.stdout, svc.Path(file))
			return 0
		}
		fmt.Fprintf(e.stdout, "config  %s\ndata    %s\nlogs    %s\n", paths.Config, paths.Data, filepath.Join(paths.Logs, "alice.log"))
	case "show":
		return configShow(e, svc, file)
	case "edit":
		if file == "" {
			file = config.AIProviderFile
		}
		return configEdit(e, svc, file)
	case "schema":
		changed, err := svc.WriteSchemas()
		for _, p := range changed {
			fmt.Fprintf(e.stdout, "added $schema to %s\n", p)
		}
		if err != nil {
			return e.errorf("%v", err)
		}
		fmt.Fprintf(e.stdout, "schemas written to %s\n", paths.Config)
	default:
		fmt.Fprintln(e.stderr, "usage: alice config path|show|edit|schema [FILE]")
		return 2
	}
	return 0
}

// configShow prints the config files as they are on disk with secrets
// masked; a missing file is listed as using its defaults.
func configShow(e *env, svc *settings.Service, only string) int {
	var names []string
	if only != "" {
		names = []string{only}
	} else {
		for _, f := range svc.Files() {
			names = append(names, f.Name)
		}
	}
	rc := 0
	for _, name := range names {
		s, err := svc.Show(name)
		switch {
		case err != nil:
			return e.errorf("%v", err)
		case !s.Exists:
			fmt.Fprintf(e.stdout, "# %s (missing: defaults apply)\n\n", s.Path)
		case s.Err != nil:
			fmt.Fprintf(e.stdout, "# %s\n! %v\n\n", s.Path, s.Err)
			rc = 1
		default:
			fmt.Fprintf(e.stdout, "# %s\n%s\n\n", s.Path, s.JSON)
		}
	}
	return rc
}

// configEdit opens a copy of the file in $VISUAL/$EDITOR (vi) and saves
// it through the settings service: the whole configuration is validated
// with the draft in place (the check `alice check` and start-up run) and
// the file is replaced atomically only if that passes and nobody changed
// it meanwhile. A refused draft is kept, and its path printed, so no edit
// is lost; the file itself stays as it was.
func configEdit(e *env, svc *settings.Service, name string) int {
	if err := svc.Ensure(name); err != nil && !isConfigError(err) {
		return e.errorf("%v", err)
	}
	orig, base, err := svc.Read(name)
	if err != nil {
		return e.errorf("%v", err)
	}
	draft, err := os.CreateTemp("", "alice-"+strings.TrimSuffix(name, ".json")+"-*.json")
	if err != nil {
		return e.errorf("%v", err)
	}
	keep := false
	defer func() {
		if !keep {
			os.Remove(draft.Name())
		}
	}()
	_, err = draft.Write(orig)
	if cerr := draft.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return e.errorf("%v", err)
	}
	editor := firstEnv("VISUAL", "EDITOR")
	if editor == "" {
		editor = "vi"
	}
	fields := strings.Fields(editor)
	cmd := exec.Command(fields[0], append(fields[1:], draft.Name())...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, e.stdout, e.stderr
	if err := cmd.Run(); err != nil {
		return e.errorf("editor %q: %v", editor, err)
	}
	edited, err := os.ReadFile(draft.Name())
	if err != nil {
		return e.errorf("%v", err)
	}
	path := svc.Path(name)
	if bytes.Equal(edited, orig) {
		if err := svc.Validate(); err != nil {
			fmt.Fprintf(e.stderr, "alice: %s is unchanged but the configuration is not valid:\n", path)
			printErrors(e.stderr, err)
			return 1
		}
		fmt.Fprintf(e.stdout, "%s is unchanged and valid\n", path)
		return 0
	}
	if _, err := svc.Write(name, base, edited); err != nil {
		keep = true
		printErrors(e.stderr, err)
		fmt.Fprintf(e.stderr, "alice: %s was not changed; your edit is kept in %s\nalice: fix it with `alice config edit %s` (alice check validates without starting)\n",
			path, draft.Name(), strings.TrimSuffix(name, ".json"))
		return 1
	}
	fmt.Fprintf(e.stdout, "%s is valid and saved\n", path)
	return 0
}

// isConfigError tells a broken file (which the editor is there to fix)
// from a failure to reach it at all.
func isConfigError(err error) bool {
	var ce *config.Error
	return errors.As(err, &ce)
}

func firstEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}
