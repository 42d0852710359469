package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/alice-trading/alice/config"
)

// runConfig is `alice config path|show|edit|schema [FILE]`.
func runConfig(e *env, args []string) int {
	if len(args) == 0 || len(args) > 2 {
		fmt.Fprintln(e.stderr, "usage: alice config path|show|edit|schema [FILE]")
		return 2
	}
	paths, err := config.ResolvePaths(e.home)
	if err != nil {
		return e.errorf("%v", err)
	}
	store := config.NewStore(paths.Config)
	file := ""
	if len(args) == 2 {
		if file, err = configFileName(args[1]); err != nil {
			return e.errorf("%v", err)
		}
	}
	switch args[0] {
	case "path":
		if file != "" {
			fmt.Fprintln(e.stdout, store.Path(file))
			return 0
		}
		fmt.Fprintf(e.stdout, "config  %s\ndata    %s\nlogs    %s\n", paths.Config, paths.Data, filepath.Join(paths.Logs, "alice.log"))
	case "show":
		return configShow(e, store, file)
	case "edit":
		if file == "" {
			file = config.AIProviderFile
		}
		return configEdit(e, store, file)
	case "schema":
		if err := os.MkdirAll(paths.Config, 0o700); err != nil {
			return e.errorf("%v", err)
		}
		if err := store.WriteSchemas(); err != nil {
			return e.errorf("%v", err)
		}
		changed, err := store.AddSchemaKeys()
		for _, p := range changed {
			fmt.Fprintf(e.stdout, "added $schema to %s\n", p)
		}
		if err != nil {
			return e.errorf("%v", err)
		}
		fmt.Fprintf(e.stdout, "schemas written to %s\n", paths.Config)
	}
	return 0
}

// configFileName accepts "mcp", "mcp.json" and refuses anything that is
// not one of alice's config files (so no path can escape the folder).
func configFileName(arg string) (string, error) {
	name := arg
	if !strings.HasSuffix(name, ".json") {
		name += ".json"
	}
	for _, f := range config.Files() {
		if f == name {
			return name, nil
		}
	}
	return "", fmt.Errorf("unknown config file %q (one of: %s)", arg, strings.Join(config.Files(), ", "))
}

// secretKey matches keys whose values must not be printed.
var secretKey = regexp.MustCompile(`(?i)(key|secret|token|password)$`)

// configShow prints the config files as they are on disk with secrets
// masked; a missing file is listed as using its defaults.
func configShow(e *env, store *config.Store, only string) int {
	files := config.Files()
	if only != "" {
		files = []string{only}
	}
	rc := 0
	for _, name := range files {
		path := store.Path(name)
		data, err := os.ReadFile(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			fmt.Fprintf(e.stdout, "# %s (missing: defaults apply)\n\n", path)
			continue
		case err != nil:
			fmt.Fprintf(e.stdout, "# %s\n! %v\n\n", path, err)
			rc = 1
			continue
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			fmt.Fprintf(e.stdout, "# %s\n! invalid JSON: %v\n\n", path, err)
			rc = 1
			continue
		}
		b, _ := json.MarshalIndent(maskSecrets(v), "", "  ")
		fmt.Fprintf(e.stdout, "# %s\n%s\n\n", path, b)
	}
	return rc
}

func maskSecrets(v any) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(x))
		for _, k := range keys {
			if s, ok := x[k].(string); ok && s != "" && secretKey.MatchString(k) {
				out[k] = "••••••"
				continue
			}
			out[k] = maskSecrets(x[k])
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = maskSecrets(x[i])
		}
		return out
	}
	return v
}

// configEdit opens the file in $VISUAL/$EDITOR (vi) and validates it
// afterwards, naming the file and key if the edit broke it.
func configEdit(e *env, store *config.Store, name string) int {
	path := store.Path(name)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return e.errorf("%v", err)
		}
		if err := store.CheckAll(); err != nil { // creates missing files with defaults
			return e.errorf("%v", err)
		}
	}
	editor := firstEnv("VISUAL", "EDITOR")
	if editor == "" {
		editor = "vi"
	}
	fields := strings.Fields(editor)
	cmd := exec.Command(fields[0], append(fields[1:], path)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, e.stdout, e.stderr
	if err := cmd.Run(); err != nil {
		return e.errorf("editor %q: %v", editor, err)
	}
	if err := store.CheckAll(); err != nil {
		fmt.Fprintf(e.stderr, "alice: %v\nalice: fix it with `alice config edit %s` (alice check validates without starting)\n", err, strings.TrimSuffix(name, ".json"))
		return 1
	}
	fmt.Fprintf(e.stdout, "%s is valid\n", path)
	return 0
}

func firstEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}
