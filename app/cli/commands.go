package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// command is one row of the CLI table. The table is the single source for
// dispatch, --help, the shell completion scripts and the man page, so a
// new command is one line here plus its run function.
type command struct {
	// Name is the first word after "alice" ("" is the default: the TUI).
	Name string
	// Args documents the positional arguments, e.g. "bash|zsh|fish".
	Args string
	// Summary is one line for --help and the man page.
	Summary string
	// Words are the fixed words accepted as the first positional
	// argument (subcommands such as "path show edit"), for completion.
	Words []string
	// Flags are accepted after the command in addition to globalFlags.
	Flags []flagDef
	// Hidden commands are dispatched but not listed in --help.
	Hidden bool
	// Run executes the command; args are the positional arguments.
	Run func(e *env, args []string) int
}

// flagDef is one flag in the table; Arg names its value ("" for booleans).
type flagDef struct {
	Name, Arg, Help string
}

// commands is the CLI table. Keep one line per command.
func commands() []command {
	return []command{
		{Name: "", Summary: "open the terminal UI on this data dir's core, starting the core in the background when none runs (ctrl+z detaches, quitting stops it)", Flags: []flagDef{{Name: "foreground", Help: "alice runs the core inside this terminal's process instead (it stops when the UI quits; no detach)"}}, Run: runTUICommand},
		{Name: "serve", Summary: "run the same core headless: MCP ports, scheduling, workspaces; terminals attach with alice", Flags: []flagDef{{Name: "quiet", Help: "alice serve prints nothing (it is how alice starts a background core)"}}, Run: runServe},
		{Name: "attach", Summary: "open the terminal UI on the running core (never starts one)", Run: runAttach},
		{Name: "service", Args: "install|uninstall|status", Words: []string{"install", "uninstall", "status"}, Summary: "start the core on login: write (or remove) a systemd user unit / launchd agent for alice serve", Run: runService},
		{Name: "stop", Summary: "stop the running core cleanly (its MCP ports, schedules and workspace sessions)", Run: runStop},
		{Name: "check", Summary: "validate every config file and exit", Run: runCheck},
		{Name: "version", Summary: "print version, commit, build date and Go version", Run: runVersion},
		{Name: "doctor", Summary: "check data dir, lock, config, ports, AI provider, programs, MCP endpoints and accounts; print fixes", Run: runDoctor},
		{Name: "config", Args: "path|show|edit|schema [FILE]", Words: []string{"path", "show", "edit", "schema"}, Summary: "where the files are, show them (secrets masked), edit and validate one, write JSON Schemas", Run: runConfig},
		{Name: "logs", Summary: "print the end of the log, pretty (--lines N, --follow, --level warn)", Flags: []flagDef{{Name: "lines", Arg: "N", Help: "how many records alice logs prints (default 50)"}, {Name: "follow", Help: "alice logs keeps printing new records"}, {Name: "level", Arg: "LEVEL", Help: "alice logs shows records at or above LEVEL (debug, info, warn, error)"}}, Run: runLogs},
		{Name: "completion", Args: "bash|zsh|fish", Words: []string{"bash", "zsh", "fish"}, Summary: "print a shell completion script", Run: runCompletion},
		{Name: "man", Summary: "print the man page (roff) generated from this table", Run: runMan},
		workspaceCommand,
		haltCommand,
		resumeCommand,
	}
}

// globalFlags are accepted by every command, before or after its name.
func globalFlags() []flagDef {
	return []flagDef{
		{Name: "home", Arg: "DIR", Help: "keep config in DIR/config and data in DIR/data (or set ALICE_HOME)"},
		{Name: "debug", Help: "verbose logging to the log file"},
		{Name: "version", Help: "print the version and exit"},
		{Name: "help", Help: "show this help"},
	}
}

// env is what a command runs with: the writers and the parsed flags.
type env struct {
	stdout, stderr io.Writer
	home           string
	debug          bool
	// flags holds command-specific flag values by name.
	flags map[string]*string
	// stdin answers confirmations (os.Stdin when nil).
	stdin io.Reader
}

// flag returns a command-specific flag's value ("" when unset).
func (e *env) flag(name string) string {
	if p := e.flags[name]; p != nil {
		return *p
	}
	return ""
}

func (e *env) errorf(format string, a ...any) int {
	fmt.Fprintf(e.stderr, "alice: "+format+"\n", a...)
	return 1
}

func findCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.Name == name {
			return c, true
		}
	}
	return command{}, false
}

// dispatch picks the command named by the first argument (the TUI when
// the first argument is a flag or absent), parses flags wherever they
// appear and runs it.
func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd, _ := findCommand("")
	if i := commandIndex(args); i < len(args) && !strings.HasPrefix(args[i], "-") {
		c, ok := findCommand(args[i])
		if !ok {
			fmt.Fprintf(stderr, "alice: unknown command %q\n\n%s", args[i], usageText())
			return 2
		}
		cmd, args = c, append(args[:i:i], args[i+1:]...)
	}
	e := &env{stdout: stdout, stderr: stderr, flags: map[string]*string{}, stdin: stdin}
	fs := flag.NewFlagSet("alice", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&e.home, "home", "", "")
	fs.BoolVar(&e.debug, "debug", false, "")
	showVersion := fs.Bool("version", false, "")
	for _, f := range cmd.Flags {
		v := new(string)
		e.flags[f.Name] = v
		if f.Arg == "" {
			fs.Var((*boolString)(v), f.Name, f.Help)
		} else {
			fs.StringVar(v, f.Name, "", f.Help)
		}
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usageText())
			return 0
		}
		fmt.Fprintf(stderr, "alice: %v\n\n%s", err, usageText())
		return 2
	}
	if *showVersion {
		return runVersion(e, nil)
	}
	if cmd.Name == "" && len(pos) > 0 {
		fmt.Fprintf(stderr, "alice: unknown command %q\n\n%s", pos[0], usageText())
		return 2
	}
	if len(cmd.Words) > 0 && len(pos) > 0 && !contains(cmd.Words, pos[0]) {
		fmt.Fprintf(stderr, "alice %s: unknown argument %q (want %s)\n", cmd.Name, pos[0], strings.Join(cmd.Words, ", "))
		return 2
	}
	return cmd.Run(e, pos)
}

// commandIndex is where the command's name sits in args: after any global
// flags ("alice --home DIR check" is "alice check --home DIR"). It stops at
// the first argument that is neither a global flag nor its value, so a
// command-specific flag before any name ("alice --foreground") still means
// the TUI.
func commandIndex(args []string) int {
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			return i
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f, ok := globalFlag(name)
		if !ok {
			return i
		}
		i++
		if f.Arg != "" && !hasValue {
			i++ // its value: "--home DIR"
		}
	}
	return i
}

func globalFlag(name string) (flagDef, bool) {
	for _, f := range globalFlags() {
		if f.Name == name {
			return f, true
		}
	}
	return flagDef{}, false
}

// boolString is a boolean flag stored as "true" or "" so every
// command-specific flag lives in one map.
type boolString string

func (b *boolString) String() string   { return string(*b) }
func (b *boolString) IsBoolFlag() bool { return true }
func (b *boolString) Set(v string) error {
	switch v {
	case "true", "1":
		*b = "true"
	case "false", "0":
		*b = ""
	default:
		return fmt.Errorf("invalid boolean %q", v)
	}
	return nil
}

// parseInterleaved lets flags follow positional arguments
// ("alice config show --home X"), which the flag package alone stops at.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// usageText renders --help from the table.
func usageText() string {
	var b strings.Builder
	b.WriteString("alice — a terminal-first AI trading agent\n\nUsage:\n")
	rows := [][2]string{}
	for _, c := range commands() {
		if c.Hidden {
			continue
		}
		left := "alice"
		if c.Name != "" {
			left += " " + c.Name
		}
		if c.Args != "" {
			left += " " + c.Args
		}
		left += " [flags]"
		rows = append(rows, [2]string{left, c.Summary})
	}
	writeRows(&b, rows)
	b.WriteString("\nFlags:\n")
	rows = rows[:0]
	for _, f := range allFlags() {
		left := "--" + f.Name
		if f.Arg != "" {
			left += " " + f.Arg
		}
		rows = append(rows, [2]string{left, f.Help})
	}
	writeRows(&b, rows)
	b.WriteString(`
Files:
  config   $XDG_CONFIG_HOME/alice/*.json  (ai-provider.json, mcp.json, connectors.json, accounts.json, …)
  data     $XDG_DATA_HOME/alice/           (sessions, inbox, trading history, workspaces, event log)
  logs     $XDG_STATE_HOME/alice/logs/alice.log
`)
	return b.String()
}

func writeRows(b *strings.Builder, rows [][2]string) {
	w := 0
	for _, r := range rows {
		w = max(w, len([]rune(r[0])))
	}
	for _, r := range rows {
		fmt.Fprintf(b, "  %-*s  %s\n", w, r[0], r[1])
	}
}

// allFlags is the global flags followed by every command's own flags
// (deduplicated by name), for help, completion and the man page.
func allFlags() []flagDef {
	out := globalFlags()
	seen := map[string]bool{}
	for _, f := range out {
		seen[f.Name] = true
	}
	var extra []flagDef
	for _, c := range commands() {
		for _, f := range c.Flags {
			if !seen[f.Name] {
				seen[f.Name] = true
				extra = append(extra, f)
			}
		}
	}
	sort.Slice(extra, func(i, j int) bool { return extra[i].Name < extra[j].Name })
	return append(out, extra...)
}

// Main is the whole CLI behind the alice binary: it dispatches args and
// returns the process exit status.
func Main(args []string, stdout, stderr io.Writer) int { return run(args, stdout, stderr) }

// run is Main with its writers injected for tests.
func run(args []string, stdout, stderr io.Writer) int {
	return dispatch(args, nil, stdout, stderr)
}

// runWithInput is run with confirmations read from stdin.
func runWithInput(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return dispatch(args, stdin, stdout, stderr)
}
