package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/agent"
	"github.com/alice-trading/alice/workspace"
	"github.com/alice-trading/alice/workspace/wsapi"
)

// workspaceCommand is the `alice workspace` row of the command table.
var workspaceCommand = command{
	Name: "workspace", Args: "new TAG | ls | rm ID|TAG | send ID|TAG TEXT | run ID|TAG TEXT", Words: []string{"new", "ls", "rm", "send", "run"},
	Summary: "create, list and remove workspaces, type into their sessions, run work in them (through the running instance and its work queue, else on the data dir)",
	Flags: []flagDef{
		{Name: "template", Arg: "T", Help: "template for new (chat, shell-only, …; default chat)"},
		{Name: "json", Help: "print JSON"},
		{Name: "remove-dir", Help: "rm: also delete the workspace directory (kept by default)"},
		{Name: "draft", Help: "send: type the text without pressing Enter"},
		{Name: "session", Arg: "NAME", Help: "send: the session (id or name such as c1; default the newest live one); run --dialog: the session to continue"},
		{Name: "agent", Arg: "A", Help: "run: claude (claude -p), codex (codex exec) or shell (TEXT is the command; default the workspace's first agent)"},
		{Name: "model", Arg: "M", Help: "run: the agent CLI's model"},
		{Name: "timeout", Arg: "SEC", Help: "run: time limit in seconds (default 600)"},
		{Name: "dialog", Help: "run: type TEXT into the workspace's persistent session and wait for its reply instead of a one-shot"},
	},
	Run: runWorkspace,
}

func runWorkspace(e *env, args []string) int {
	if len(args) == 0 {
		return e.errorf("workspace: want new TAG, ls, rm ID|TAG, send ID|TAG TEXT or run ID|TAG TEXT")
	}
	b, where, closeFn, err := workspaceBackend(e)
	if err != nil {
		return e.errorf("workspace: %v", err)
	}
	defer closeFn()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	switch sub, rest := args[0], args[1:]; sub {
	case "new":
		if len(rest) != 1 {
			return e.errorf("workspace new: want exactly one TAG (e.g. alice workspace new research-aapl)")
		}
		in, err := b.Create(ctx, rest[0], e.flag("template"))
		if err != nil {
			return e.errorf("workspace new: %v", err)
		}
		if e.flag("json") != "" {
			return printJSON(e, in)
		}
		fmt.Fprintf(e.stdout, "created workspace %s (%s)\nid:            %s\ndir:           %s\nmcp:           %s\nworkspace mcp: %s\n",
			in.Tag, where, in.ID, in.Dir, in.MCPURL, in.WorkspaceMCPURL)
		if strings.Contains(in.MCPURL, ":0/") {
			fmt.Fprintln(e.stdout, "note: mcp.json picks a free port at start; the workspace's .mcp.json is updated when a session starts")
		}
		return 0
	case "ls":
		list, err := b.List(ctx)
		if err != nil {
			return e.errorf("workspace ls: %v", err)
		}
		if e.flag("json") != "" {
			return printJSON(e, list)
		}
		if len(list) == 0 {
			fmt.Fprintln(e.stdout, "no workspaces (alice workspace new TAG creates one)")
			return 0
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tTAG\tTEMPLATE\tSESSIONS\tDIR")
		for _, in := range list {
			var ss []string
			for _, x := range in.Sessions {
				row := x.Name + " " + x.State
				if x.AgentState != "" {
					row = x.Glyph + " " + x.Name + " " + x.AgentState
				}
				ss = append(ss, row)
			}
			if in.Archived {
				ss = append(ss, "archived")
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", in.ID, in.Tag, in.Template, dashIfEmpty(strings.Join(ss, ", ")), in.Dir)
		}
		_ = tw.Flush()
		return 0
	case "send":
		return runWorkspaceSend(ctx, e, b, rest)
	case "run":
		return runWorkspaceRun(e, b, rest)
	case "rm":
		if len(rest) != 1 {
			return e.errorf("workspace rm: want exactly one ID or TAG")
		}
		removeDir := e.flag("remove-dir") != ""
		if err := b.Remove(ctx, rest[0], removeDir); err != nil {
			return e.errorf("workspace rm: %v", err)
		}
		if removeDir {
			fmt.Fprintf(e.stdout, "removed workspace %s and its directory\n", rest[0])
		} else {
			fmt.Fprintf(e.stdout, "removed workspace %s (its directory is kept)\n", rest[0])
		}
		return 0
	}
	return e.errorf("workspace: unknown subcommand %q (want new, ls, rm, send or run)", args[0])
}

func printJSON(e *env, v any) int {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return e.errorf("%v", err)
	}
	return 0
}

// workspaceBackend talks to the running instance when one owns the data
// dir (its lock is held; the lock's owner file names its main listener), and
// otherwise takes the lock itself and works on the data dir directly, so
// the two never write the same files at once.
func workspaceBackend(e *env) (b wsapi.Backend, where string, closeFn func(), err error) {
	paths, err := config.ResolvePaths(e.home)
	if err != nil {
		return nil, "", nil, err
	}
	store := config.NewReadOnlyStore(paths.Config)
	mcpCfg, err := store.MCP()
	if err != nil {
		return nil, "", nil, err
	}
	lock, err := config.LockDataDir(paths.Data, "alice workspace")
	var locked *config.LockedError
	if errors.As(err, &locked) {
		// The owner records its listeners in the lock's owner file once
		// they are bound (recordListeners); the main one serves the API.
		url := ""
		if locked.Owner != nil {
			for _, l := range locked.Owner.Listeners {
				if l.Name == app.MainListener {
					url = l.URL
				}
			}
		}
		if url == "" {
			return nil, "", nil, fmt.Errorf("%w; its listeners are not recorded yet, try again in a moment", err)
		}
		c := wsapi.NewClient(url, mcpCfg.Token)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := c.List(ctx); err != nil {
			return nil, "", nil, fmt.Errorf("running alice at %s: %w", c.BaseURL, err)
		}
		return c, "via the running alice at " + c.BaseURL, func() {}, nil
	}
	if err != nil {
		return nil, "", nil, err
	}
	if err := paths.Ensure(); err != nil {
		_ = lock.Release()
		return nil, "", nil, err
	}
	homes := config.OpenHomes()
	_ = homes.Register(paths) // before any run: other homes' sandboxes hide this one
	host := mcpCfg.Host
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	url := "http://" + net.JoinHostPort(host, strconv.Itoa(mcpCfg.Port)) + "/mcp"
	// Log to alice's log file, never to the terminal.
	logger, logCloser, err := app.OpenLog(paths.Logs, slog.LevelInfo)
	if err != nil {
		_ = lock.Release()
		return nil, "", nil, err
	}
	wsCfg, err := store.Workspaces()
	if err != nil {
		_ = logCloser.Close()
		_ = lock.Release()
		return nil, "", nil, err
	}
	m, err := workspace.NewManager(workspace.Options{Root: paths.DataPath("workspaces"), MCPURL: func() string { return url },
		Persona: agent.PersonaFile(paths.DataPath("brain", "persona.md")), Logger: logger,
		Sandbox: workspace.SandboxOptions{Hide: paths.Private(), Mode: wsCfg.Sandbox,
			HideEnv: func() []string { return app.CredentialEnvNames(store) }, HideMore: homes.Others, ReadOnly: config.Protected()}})
	if err != nil {
		_ = logCloser.Close()
		_ = lock.Release()
		return nil, "", nil, err
	}
	return wsapi.Service{M: m, MCPURL: func() string { return url }}, "alice is not running; wrote " + paths.Data,
		func() { _ = m.Close(); _ = logCloser.Close(); _ = lock.Release() }, nil
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
