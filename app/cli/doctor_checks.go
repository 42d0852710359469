package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/provider"
	"github.com/alice-trading/alice/mcp"
	"github.com/alice-trading/alice/trading/simmarket"
	"github.com/alice-trading/alice/trading/uta"
)

// Data dir lock files, as written by the alice that owns the dir.
const (
	lockFileName  = config.LockFile
	lockOwnerName = config.LockOwnerFile
)

// lockOwner mirrors config.LockOwner (the owner file a running alice
// keeps beside its lock) with just what doctor reads.
type lockOwner struct {
	PID       int       `json:"pid"`
	Command   string    `json:"command"`
	Started   time.Time `json:"started"`
	Listeners []struct {
		Name string `json:"name"`
		URL  string `json:"url"`
	} `json:"listeners"`
}

// listenerKind maps the names app.Listeners records ("MCP", "Ask") to
// doctor's "main" and "ask".
func listenerKind(name string) string {
	if strings.EqualFold(name, "ask") {
		return "ask"
	}
	if strings.EqualFold(name, "mcp") || strings.EqualFold(name, "main") {
		return "main"
	}
	return strings.ToLower(name)
}

// listener returns the URL of the owner's "main" or "ask" listener.
func (o *lockOwner) listener(kind string) string {
	if o == nil {
		return ""
	}
	for _, l := range o.Listeners {
		if listenerKind(l.Name) == kind {
			return l.URL
		}
	}
	return ""
}

func (d *doctorRun) checkDataDir() checkResult {
	r := checkResult{Name: "data dir", Fix: "make it a writable directory, or run with --home DIR (ALICE_HOME) elsewhere"}
	dir := d.paths.Data
	info, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		parent := filepath.Dir(dir)
		for {
			if _, err := os.Stat(parent); err == nil || parent == filepath.Dir(parent) {
				break
			}
			parent = filepath.Dir(parent)
		}
		if err := writable(parent); err != nil {
			r.State, r.Detail = checkFail, fmt.Sprintf("%s cannot be created: %v", dir, err)
			return r
		}
		r.Detail = dir + " (created on first start)"
		d.dataOK = true
		return r
	}
	if err != nil {
		r.State, r.Detail = checkFail, err.Error()
		return r
	}
	if !info.IsDir() {
		r.State, r.Detail = checkFail, dir+" is not a directory"
		return r
	}
	if err := writable(dir); err != nil {
		r.State, r.Detail = checkFail, fmt.Sprintf("%s is not writable: %v", dir, err)
		return r
	}
	r.Detail = dir + " (writable)"
	d.dataOK = true
	return r
}

func writable(dir string) error {
	f, err := os.CreateTemp(dir, ".alice-doctor-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// checkLock reports who owns the data dir. A running alice holding it is
// fine (later checks then talk to it); a lock that cannot be taken at all
// would stop alice from starting.
func (d *doctorRun) checkLock() checkResult {
	path := filepath.Join(d.paths.Data, lockFileName)
	r := checkResult{Name: "lock"}
	if !d.dataOK {
		r.State, r.Detail = checkSkip, "skipped: the data dir is unusable"
		return r
	}
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		r.Detail = "free (no alice running on this data dir)"
		return r
	}
	f, err := os.Open(path)
	if err != nil {
		r.State, r.Detail = checkFail, fmt.Sprintf("cannot open %s: %v", path, err)
		r.Fix = "remove it (rm " + path + ") — no alice is using it if it cannot be opened"
		return r
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if err == nil {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		r.Detail = "free (no alice running on this data dir)"
		return r
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		r.State, r.Detail = checkFail, fmt.Sprintf("cannot lock %s: %v", path, err)
		r.Fix = "keep the data dir on a local filesystem that supports flock (--home DIR)"
		return r
	}
	var o lockOwner
	b, rerr := os.ReadFile(filepath.Join(d.paths.Data, lockOwnerName))
	if rerr != nil || json.Unmarshal(b, &o) != nil || o.PID == 0 {
		r.Detail = "held by a running alice (its pid is not recorded)"
		d.owner = &lockOwner{}
		return r
	}
	d.owner = &o
	r.Detail = fmt.Sprintf("held by running %q (pid %d, since %s)", o.Command, o.PID, o.Started.Local().Format("Jan 2 15:04"))
	return r
}

// checkConfig runs exactly the validation start-up runs (app.Validate:
// every file, plus broker presets, presetConfig and guards) on a read-only
// store, so missing files are checked as their defaults, not created.
func (d *doctorRun) checkConfig() checkResult {
	r := checkResult{Name: "config"}
	d.store = config.NewReadOnlyStore(d.paths.Config)
	if err := app.Validate(d.store, d.deps.getenv); err != nil {
		lines := strings.Split(err.Error(), "\n")
		r.State, r.Detail = checkFail, lines[0]
		if len(lines) > 1 {
			r.Detail += fmt.Sprintf(" (+%d more: alice check lists them all)", len(lines)-1)
		}
		name := "FILE"
		var ce *config.Error
		if errors.As(err, &ce) {
			name = strings.TrimSuffix(filepath.Base(ce.File), ".json")
		}
		r.Fix = "alice config edit " + name + " (alice check re-validates; the schema beside each file helps editors)"
		return r
	}
	d.configOK = true
	r.Detail = d.paths.Config + " valid"
	return r
}

type portSpec struct {
	name, host string
	port       int
	fix        string
}

func (d *doctorRun) ports() []portSpec {
	var out []portSpec
	if m, err := d.store.MCP(); err == nil {
		out = append(out, portSpec{"main", m.Host, m.Port, `change "port" in mcp.json (alice config edit mcp)`})
	}
	if c, err := d.store.Connectors(); err == nil && mcp.AskEnabled(c.MCPAsk) {
		out = append(out, portSpec{"ask", c.MCPAsk.Host, c.MCPAsk.Port, `change "mcpAsk.port" in connectors.json (alice config edit connectors)`})
	}
	return out
}

func (d *doctorRun) checkPorts() []checkResult {
	if !d.configOK {
		return []checkResult{{Name: "ports", State: checkSkip, Detail: "skipped: config is invalid"}}
	}
	var out []checkResult
	for _, p := range d.ports() {
		r := checkResult{Name: "port " + p.name}
		host := p.host
		if host == "" {
			host = "127.0.0.1"
		}
		hp := net.JoinHostPort(host, strconv.Itoa(p.port))
		if p.port == 0 {
			r.Detail = "0: a free port is picked at each start"
			out = append(out, r)
			continue
		}
		if u, err := url.Parse(d.owner.listener(p.name)); err == nil && u.Port() == strconv.Itoa(p.port) {
			r.Detail = fmt.Sprintf("%s held by this alice (pid %d)", hp, d.owner.PID)
			out = append(out, r)
			continue
		}
		ln, err := net.Listen("tcp", hp)
		if err != nil {
			r.State, r.Detail = checkFail, fmt.Sprintf("%s is in use by another program: %v", hp, err)
			r.Fix = fmt.Sprintf("stop it (`ss -ltnp 'sport = :%d'` shows which) or %s", p.port, p.fix)
		} else {
			_ = ln.Close()
			r.Detail = hp + " free"
		}
		out = append(out, r)
	}
	return out
}

func (d *doctorRun) checkProvider(ctx context.Context) checkResult {
	r := checkResult{Name: "AI provider"}
	if !d.configOK {
		r.State, r.Detail = checkSkip, "skipped: config is invalid"
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, d.deps.timeout)
	defer cancel()
	label, lat, err := d.deps.ping(ctx, d.store, d.owner.listener("main"))
	if err != nil {
		r.State, r.Detail = checkFail, firstLine(err.Error())
		if errors.Is(err, provider.ErrNoProvider) {
			r.Fix = "add a profile and make it active: alice config edit ai-provider (README: Choosing an AI provider)"
		} else {
			r.Fix = "check the profile's key, baseUrl and model in ai-provider.json (alice config edit ai-provider)"
		}
		return r
	}
	r.Detail = fmt.Sprintf("%s answered in %s", label, lat.Round(time.Millisecond))
	return r
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

// pingProvider sends the active profile one tiny request.
func pingProvider(ctx context.Context, store *config.Store, mcpURL string) (string, time.Duration, error) {
	cliDir, err := os.MkdirTemp("", "alice-doctor-cli-*")
	if err != nil {
		return "", 0, err
	}
	defer os.RemoveAll(cliDir)
	res, err := provider.NewRouter(store, func() string { return mcpURL }).WithCLIDir(cliDir).Resolve("", "")
	if err != nil {
		return "", 0, err
	}
	start := time.Now()
	req := provider.Request{Model: res.Model, MaxTokens: 16,
		Messages: []provider.Message{{Role: provider.RoleUser, Text: "Reply with the single word OK."}}}
	for ev := range res.Provider.Stream(ctx, req) {
		switch ev.Kind {
		case provider.EventError:
			return res.Label(), 0, ev.Err
		case provider.EventDone:
			return res.Label(), time.Since(start), nil
		}
	}
	if ctx.Err() != nil {
		return res.Label(), 0, fmt.Errorf("no answer within the time limit: %w", ctx.Err())
	}
	return res.Label(), 0, errors.New("the stream ended without an answer")
}

// program is one external tool doctor looks for.
type program struct {
	name, why, install string
	required           bool
	versionFlag        string // "--version" unless set
}

func (d *doctorRun) programs() []program {
	uses := map[config.Backend]string{}
	if d.configOK {
		if cfg, err := d.store.AIProvider(); err == nil {
			for name, p := range cfg.Profiles {
				uses[p.Backend] = name
			}
		}
	}
	claude := program{name: "claude", why: "claude workspaces", install: "npm install -g @anthropic-ai/claude-code"}
	if p, ok := uses[config.BackendClaudeCLI]; ok {
		claude.required, claude.why = true, "profile "+strconv.Quote(p)+" uses claude-cli"
	}
	codex := program{name: "codex", why: "codex workspaces", install: "npm install -g @openai/codex"}
	if p, ok := uses[config.BackendCodexCLI]; ok {
		codex.required, codex.why = true, "profile "+strconv.Quote(p)+" uses codex-cli"
	}
	return []program{
		claude, codex,
		{name: "tmux", why: "the end-to-end test (make e2e)", install: "apt install tmux / brew install tmux", versionFlag: "-V"},
		{name: "git", why: "workspaces are git repositories", install: "apt install git / brew install git", required: true},
	}
}

func (d *doctorRun) checkPrograms(ctx context.Context) []checkResult {
	var out []checkResult
	for _, p := range d.programs() {
		r := checkResult{Name: p.name, Fix: p.install}
		path, err := d.deps.lookPath(p.name)
		if err != nil {
			r.State, r.Detail = checkSkip, "not found (optional: "+p.why+")"
			if p.required {
				r.State, r.Detail = checkFail, "not found on PATH ("+p.why+")"
			}
			out = append(out, r)
			continue
		}
		flag := p.versionFlag
		if flag == "" {
			flag = "--version"
		}
		v, err := d.deps.version(ctx, path, flag)
		if err != nil {
			r.State, r.Detail = checkSkip, fmt.Sprintf("%s does not run (optional: %s): %v", path, p.why, err)
			if p.required {
				r.State, r.Detail = checkFail, fmt.Sprintf("%s does not run: %v", path, err)
			}
			r.Fix = "reinstall: " + p.install
			out = append(out, r)
			continue
		}
		r.Detail = fmt.Sprintf("%s (%s)", v, path)
		out = append(out, r)
	}
	return out
}

// checkMCP sends initialize to each MCP endpoint of the running alice and
// checks that its attach listeners accept connections.
func (d *doctorRun) checkMCP(ctx context.Context) []checkResult {
	if d.owner == nil || len(d.owner.Listeners) == 0 {
		return []checkResult{{Name: "mcp", State: checkSkip,
			Detail: "alice is not running: start `alice serve` (or alice) and run doctor again to check the endpoints"}}
	}
	var out []checkResult
	for _, l := range d.owner.Listeners {
		if !isMCPListener(l.URL) {
			out = append(out, checkAttachListener(ctx, strings.ToLower(l.Name), l.URL))
			continue
		}
		kind := listenerKind(l.Name)
		r := checkResult{Name: "mcp " + kind}
		server, lat, err := mcpInitialize(ctx, l.URL, d.token(kind))
		if err != nil {
			r.State, r.Detail = checkFail, fmt.Sprintf("%s: %v", l.URL, err)
			r.Fix = "alice logs --level warn shows why; restart alice if the listener died"
		} else {
			r.Detail = fmt.Sprintf("%s answered initialize in %s (%s)", l.URL, lat.Round(time.Millisecond), server)
		}
		out = append(out, r)
	}
	return out
}

func (d *doctorRun) token(listener string) string {
	if !d.configOK {
		return ""
	}
	if listener == "ask" {
		c, _ := d.store.Connectors()
		return c.MCPAsk.Token
	}
	m, _ := d.store.MCP()
	return m.Token
}

// mcpInitialize performs the initialize handshake over plain HTTP and
// closes the session again.
func mcpInitialize(ctx context.Context, endpoint, token string) (string, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"alice-doctor","version":"1"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		return "", 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", 0, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	lat := time.Since(start)
	if resp.StatusCode != http.StatusOK {
		return "", lat, fmt.Errorf("HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(raw)))
	}
	text := string(raw)
	if i := strings.Index(text, "data: "); i >= 0 { // an SSE-framed answer
		text = strings.TrimSpace(strings.SplitN(text[i+6:], "\n", 2)[0])
	}
	var msg struct {
		Result struct {
			ServerInfo struct{ Name, Version string } `json:"serverInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(text), &msg); err != nil || msg.Result.ServerInfo.Name == "" {
		return "", lat, fmt.Errorf("not an MCP initialize answer: %.200s", text)
	}
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		del, _ := http.NewRequestWithContext(ctx, http.MethodDelete, endpoint, nil)
		del.Header.Set("Mcp-Session-Id", sid)
		if token != "" {
			del.Header.Set("Authorization", "Bearer "+token)
		}
		if dr, err := http.DefaultClient.Do(del); err == nil {
			dr.Body.Close()
		}
	}
	return msg.Result.ServerInfo.Name + " " + msg.Result.ServerInfo.Version, lat, nil
}

// accountHealth is one broker account as doctor reports it.
type accountHealth struct {
	ID      string `json:"id"`
	Preset  string `json:"provider"`
	Enabled bool   `json:"enabled"`
	Health  string `json:"health"`
	Error   string `json:"error"`
}

func (d *doctorRun) checkAccounts(ctx context.Context) []checkResult {
	if !d.configOK {
		return []checkResult{{Name: "accounts", State: checkSkip, Detail: "skipped: config is invalid"}}
	}
	accts, err := d.deps.accounts(ctx, d)
	if err != nil {
		return []checkResult{{Name: "accounts", State: checkFail, Detail: err.Error(),
			Fix: "alice config edit accounts; alice logs --level warn"}}
	}
	if len(accts) == 0 {
		return []checkResult{{Name: "accounts", State: checkSkip, Detail: "none configured (accounts.json is empty)"}}
	}
	var out []checkResult
	for _, a := range accts {
		r := checkResult{Name: "account " + a.ID}
		switch {
		case !a.Enabled || a.Health == string(uta.Disabled):
			r.State, r.Detail = checkSkip, "disabled ("+a.Preset+")"
		case a.Health == string(uta.Healthy):
			r.Detail = "healthy (" + a.Preset + ")"
		default:
			r.State, r.Detail = checkFail, fmt.Sprintf("%s (%s): %s", a.Health, a.Preset, a.Error)
			r.Fix = "check the account's presetConfig and API keys in accounts.json (alice config edit accounts), then reconnect it in the portfolio pane"
		}
		out = append(out, r)
	}
	return out
}

// accountsHealth asks the running alice (listUTAs over MCP) or, when none
// runs, starts the accounts on a scratch data dir and reads their health.
func accountsHealth(ctx context.Context, d *doctorRun) ([]accountHealth, error) {
	if u := d.owner.listener("main"); u != "" {
		return accountsOverMCP(ctx, u, d.token("main"))
	}
	scratch, err := os.MkdirTemp("", "alice-doctor-data-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	md, err := d.store.MarketData()
	if err != nil {
		return nil, err
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	m := uta.NewManager(d.store, config.Paths{Config: d.store.Dir(), Data: scratch, Logs: scratch}, simmarket.New(md.Seed), nil, quiet)
	ctx, cancel := context.WithTimeout(ctx, d.deps.timeout)
	defer cancel()
	_ = m.Start(ctx) // build failures show per account below
	defer m.Close()
	var out []accountHealth
	for _, s := range m.Accounts() {
		out = append(out, accountHealth{ID: s.ID, Preset: s.Preset, Enabled: s.Enabled, Health: string(s.Health), Error: s.Error})
	}
	return out, nil
}

func accountsOverMCP(ctx context.Context, endpoint, token string) ([]accountHealth, error) {
	c, err := newDoctorMCPClient(ctx, endpoint, token)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	text, err := c.call(ctx, "listUTAs")
	if err != nil {
		return nil, err
	}
	var out []accountHealth
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return nil, fmt.Errorf("listUTAs answered %.200s", text)
	}
	return out, nil
}
