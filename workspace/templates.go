package workspace

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/object"
)

//go:embed templates
var templateFS embed.FS

// Template describes a workspace skeleton embedded in the binary.
type Template struct {
	Name          string  `json:"name"`
	DisplayName   string  `json:"displayName"`
	Description   string  `json:"description"`
	DefaultAgents []Agent `json:"defaultAgents"`
	Order         int     `json:"order"`
	// Persona: CLAUDE.md = persona + "---" + the template's CLAUDE.md, and
	// AGENTS.md is a copy for codex.
	Persona bool `json:"persona"`
}

// DefaultPersona is used when Options.Persona is nil or returns "".
const DefaultPersona = "# Alice\n\nYou are Alice, a careful trading and research assistant. You explain your reasoning, " +
	"cite the data you used, and never place a trade the user did not ask for."

// gitExcludes keeps machine-local agent files out of commits.
var gitExcludes = []string{".claude/settings.local.json", ".codex/auth.json", ".codex/env.json"}

// Templates lists the embedded templates in display order.
func Templates() []Template {
	entries, err := fs.ReadDir(templateFS, "templates")
	if err != nil {
		return nil
	}
	var out []Template
	for _, e := range entries {
		if t, err := loadTemplate(e.Name()); err == nil {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	return out
}

func loadTemplate(name string) (Template, error) {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return Template{}, fmt.Errorf("unknown template %q", name)
	}
	raw, err := templateFS.ReadFile(path.Join("templates", name, "template.json"))
	if err != nil {
		return Template{}, fmt.Errorf("unknown template %q", name)
	}
	var t Template
	if err := json.Unmarshal(raw, &t); err != nil {
		return Template{}, fmt.Errorf("template %s: %w", name, err)
	}
	t.Name = name
	return t, nil
}

// TemplateReadme returns a template's README.md.
func TemplateReadme(name string) (string, error) {
	if _, err := loadTemplate(name); err != nil {
		return "", err
	}
	b, err := templateFS.ReadFile(path.Join("templates", name, "README.md"))
	return string(b), err
}

// MCPConfig is the .mcp.json content: the global endpoint and this
// workspace's endpoint, whose URL carries the workspace id (the agent never
// has to send its own identity).
func MCPConfig(mcpURL, wsID string) []byte {
	type server struct {
		Type string `json:"type"`
		URL  string `json:"url"`
	}
	cfg := map[string]map[string]server{"mcpServers": {
		"alice":           {Type: "http", URL: mcpURL},
		"alice-workspace": {Type: "http", URL: strings.TrimRight(mcpURL, "/") + "/" + wsID},
	}}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	return append(b, '\n')
}

// claudeLocalSettings lets claude connect to the project MCP servers
// without an approval prompt.
const claudeLocalSettings = "{\n  \"enableAllProjectMcpServers\": true\n}\n"

// scaffold writes a template into dir, initialises a git repository with
// go-git and makes the initial commit.
func scaffold(dir string, t Template, ws Workspace, mcpURL, persona string) error {
	files := map[string][]byte{
		".mcp.json":                   MCPConfig(mcpURL, ws.ID),
		".claude/settings.local.json": []byte(claudeLocalSettings),
	}
	err := fs.WalkDir(templateFS, path.Join("templates", t.Name), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, path.Join("templates", t.Name)+"/")
		if rel == "template.json" {
			return nil
		}
		b, err := templateFS.ReadFile(p)
		files[rel] = b
		return err
	})
	if err != nil {
		return err
	}
	if t.Persona {
		if strings.TrimSpace(persona) == "" {
			persona = DefaultPersona
		}
		md := strings.TrimRight(persona, "\n") + "\n\n---\n\n" + string(files["CLAUDE.md"])
		files["CLAUDE.md"] = []byte(md)
		files["AGENTS.md"] = []byte(md)
	}
	for rel, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		return fmt.Errorf("git init: %w", err)
	}
	exclude := filepath.Join(dir, ".git", "info", "exclude")
	if err := os.MkdirAll(filepath.Dir(exclude), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(exclude, []byte("# alice: machine-local agent files\n"+strings.Join(gitExcludes, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return err
	}
	// go-git cannot read .git/info/exclude through the worktree filesystem,
	// so load it by hand to keep local agent files out of the commit.
	wt.Excludes = append(wt.Excludes, infoExcludes(dir)...)
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		return fmt.Errorf("git add: %w", err)
	}
	sig := &object.Signature{Name: "alice", Email: "alice@local", When: time.Now()}
	if _, err := wt.Commit(fmt.Sprintf("%s: %s", t.Name, ws.Tag), &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
		return fmt.Errorf("git commit: %w", err)
	}
	return nil
}

// infoExcludes parses <dir>/.git/info/exclude into gitignore patterns.
// It is read through an os.Root: a symlink there cannot make alice read
// a file outside the workspace.
func infoExcludes(dir string) []gitignore.Pattern {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil
	}
	defer r.Close()
	b, _, err := readRegular(r, filepath.Join(".git", "info", "exclude"), 1<<20)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(l, nil))
	}
	return ps
}
