package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/agent"
	"github.com/alice-trading/alice/workspace"
	"github.com/alice-trading/alice/workspace/wsapi"
)

// workspaceCommand is the `alice workspace` row of the command table.
var workspaceCommand = command{
	Name: "workspace", Args: "new TAG | ls | rm ID|TAG", Words: []string{"new", "ls", "rm"},
	Summary: "create, list and remove workspaces (through the running instance, else on the data dir)",
	Flags: []flagDef{
		{Name: "template", Arg: "T", Help: "template for new (chat, shell-only, …; default chat)"},
		{Name: "json", Help: "print JSON"},
		{Name: "remove-dir", Help: "rm: also delete the workspace directory (kept by default)"},
	},
	Run: runWorkspace,
}

func runWorkspace(e *env, args []string) int {
	if len(args) == 0 {
		return e.errorf("workspace: want new TAG, ls or rm ID|TAG")
	}
	b, where, closeFn, err := workspaceBackend(e)
	if err != nil {
		return e.errorf("workspace: %v", err)
	}
	if b == nil {
		return 1 // e.open printed why
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
				ss = append(ss, x.Name+" "+x.State)
			}
			if in.Archived {
				ss = append(ss, "archived")
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", in.ID, in.Tag, in.Template, dashIfEmpty(strings.Join(ss, ", ")), in.Dir)
		}
		_ = tw.Flush()
		return 0
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
	return e.errorf("workspace: unknown subcommand %q (want new, ls or rm)", args[0])
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
// dir (the data-dir lock records its listeners), and otherwise takes the
// lock itself and opens the workspaces on the data dir, so nothing else
// writes them meanwhile. where says which, for the output.
func workspaceBackend(e *env) (b wsapi.Backend, where string, closeFn func(), err error) {
	paths, err := config.ResolvePaths(e.home)
	if err != nil {
		return nil, "", nil, err
	}
	if owner, running, err := runningOwner(paths.Data); err != nil {
		return nil, "", nil, err
	} else if running {
		url := ""
		for _, l := range owner.Listeners {
			if l.Name == "MCP" {
				url = l.URL
			}
		}
		if url == "" {
			return nil, "", nil, fmt.Errorf("alice (pid %d) owns %s but has not published its MCP listener yet; try again in a moment", owner.PID, paths.Data)
		}
		mcpCfg, err := config.NewStore(paths.Config).MCP()
		if err != nil {
			return nil, "", nil, err
		}
		c := wsapi.NewClient(url, mcpCfg.Token)
		return c, fmt.Sprintf("via the running alice, pid %d, at %s", owner.PID, c.BaseURL), func() {}, nil
	}
	s, ok := e.open("alice workspace")
	if !ok {
		return nil, "", nil, nil
	}
	mcpCfg, err := s.store.MCP()
	if err != nil {
		s.Close()
		return nil, "", nil, err
	}
	host := mcpCfg.Host
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	url := "http://" + net.JoinHostPort(host, strconv.Itoa(mcpCfg.Port)) + "/mcp"
	m, err := workspace.NewManager(workspace.Options{Root: s.paths.DataPath("workspaces"), MCPURL: func() string { return url },
		Persona: agent.PersonaFile(s.paths.DataPath("brain", "persona.md")), Logger: s.logger})
	if err != nil {
		s.Close()
		return nil, "", nil, err
	}
	return wsapi.Service{M: m, MCPURL: func() string { return url }}, "alice is not running; wrote " + s.paths.Data,
		func() { _ = m.Close(); s.Close() }, nil
}

// runningOwner probes the data-dir lock: held means an alice is running.
func runningOwner(dataDir string) (config.LockOwner, bool, error) {
	l, err := config.LockDataDir(dataDir, "alice workspace")
	if err == nil {
		return config.LockOwner{}, false, l.Release()
	}
	var le *config.LockedError
	if errors.As(err, &le) {
		if le.Owner == nil {
			return config.LockOwner{}, false, fmt.Errorf("%s is locked by an alice that has not recorded itself yet; try again in a moment", dataDir)
		}
		return *le.Owner, true, nil
	}
	return config.LockOwner{}, false, err
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
