package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/user"
	"strings"
	"time"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/eventlog"
	"github.com/alice-trading/alice/trading/simmarket"
	"github.com/alice-trading/alice/trading/uta"
)

var haltCommand = command{Name: "halt", Summary: "kill switch: freeze staging on every account and cancel resting orders (asks to confirm; undone only by alice resume)",
	Flags: []flagDef{{Name: "yes", Help: "alice halt and alice resume do not ask for confirmation"}, {Name: "reason", Arg: "TEXT", Help: "why alice halt was pulled (kept in the event log)"}},
	Run:   runHalt}

var resumeCommand = command{Name: "resume", Summary: "lift the kill switch (a person's decision; asks to confirm)",
	Flags: []flagDef{{Name: "yes", Help: "alice halt and alice resume do not ask for confirmation"}},
	Run:   runResume}

// confirm asks the person to type yes unless --yes was given; without a
// terminal (EOF) nothing is confirmed.
func confirm(e *env, cmd, question string) bool {
	if e.flag("yes") != "" {
		return true
	}
	fmt.Fprint(e.stdout, question+" Type yes to confirm: ")
	line, _ := bufio.NewReader(e.input()).ReadString('\n')
	if strings.TrimSpace(strings.ToLower(line)) != "yes" {
		fmt.Fprintln(e.stderr, cmd+": not confirmed; nothing was done (pass --yes to skip the question)")
		return false
	}
	return true
}

// stdin is where confirmations are read; tests replace it through env.
func (e *env) input() io.Reader {
	if e.stdin != nil {
		return e.stdin
	}
	return os.Stdin
}

func whoAmI() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return "alice CLI (" + u.Username + ")"
	}
	return "alice CLI"
}

func runHalt(e *env, _ []string) int {
	if !confirm(e, "alice halt", "Halt trading on EVERY account: staging freezes, commits awaiting approval are withdrawn and every resting order is cancelled.") {
		return 1
	}
	req := app.HaltRequest{Reason: e.flag("reason")}
	var rep uta.HaltReport
	err := withTrading(e, "alice halt", app.HaltRoute, req, &rep, func(ctx context.Context, m *uta.Manager) error {
		var err error
		rep, err = m.Halt(ctx, whoAmI(), req.Reason)
		return err
	})
	if err != nil {
		fmt.Fprintln(e.stderr, "alice halt:", err)
		return 1
	}
	fmt.Fprint(e.stdout, app.HaltSummary(rep))
	fmt.Fprintln(e.stdout, "Lift it with: alice resume")
	return 0
}

func runResume(e *env, _ []string) int {
	if !confirm(e, "alice resume", "Resume trading: every account stages orders again (pushes still need their approvals).") {
		return 1
	}
	var req app.HaltRequest
	var st uta.HaltState
	err := withTrading(e, "alice resume", app.ResumeRoute, req, &st, func(_ context.Context, m *uta.Manager) error {
		_, err := m.Resume(whoAmI())
		return err
	})
	if err != nil {
		fmt.Fprintln(e.stderr, "alice resume:", err)
		return 1
	}
	fmt.Fprintln(e.stdout, "Trading resumed: accounts stage again (pushes still need their approvals).")
	return 0
}

// withTrading runs a kill-switch action on the running alice (its main
// listener's route) when one owns the data dir, else on the trading
// domain built here under the data dir's lock, with the event log.
func withTrading(e *env, cmd, route string, req app.HaltRequest, out any, local func(context.Context, *uta.Manager) error) error {
	paths, err := config.ResolvePaths(e.home)
	if err != nil {
		return err
	}
	store := config.NewReadOnlyStore(paths.Config)
	mcpCfg, err := store.MCP()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	lock, err := config.LockDataDir(paths.Data, cmd)
	var locked *config.LockedError
	if errors.As(err, &locked) {
		url := ""
		if locked.Owner != nil {
			for _, l := range locked.Owner.Listeners {
				if l.Name == app.MainListener {
					url = strings.TrimSuffix(l.URL, "/mcp")
				}
			}
		}
		if url == "" {
			return fmt.Errorf("%w; its listeners are not recorded yet, try again in a moment", err)
		}
		method, path, _ := strings.Cut(route, " ")
		body, _ := json.Marshal(req)
		hr, err := http.NewRequestWithContext(ctx, method, url+path, bytes.NewReader(body))
		if err != nil {
			return err
		}
		hr.Header.Set("Content-Type", "application/json")
		// The operator key proves this is the person's CLI on this
		// machine; resume refuses without it, halt is then recorded as
		// an anonymous HTTP client.
		key, kerr := config.ReadOperatorKey(paths.Data)
		if kerr != nil && route == app.ResumeRoute {
			return kerr
		}
		if kerr == nil {
			hr.Header.Set(config.OperatorKeyHeader, key)
		}
		if mcpCfg.Token != "" {
			hr.Header.Set("Authorization", "Bearer "+mcpCfg.Token)
		}
		resp, err := http.DefaultClient.Do(hr)
		if err != nil {
			return fmt.Errorf("running alice at %s: %w", url, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("running alice at %s: %s", url, strings.TrimSpace(string(b)))
		}
		return json.Unmarshal(b, out)
	}
	if err != nil {
		return err
	}
	defer func() { _ = lock.Release() }()
	if err := paths.Ensure(); err != nil {
		return err
	}
	logger, logCloser, err := app.OpenLog(paths.Logs, slog.LevelInfo)
	if err != nil {
		return err
	}
	defer logCloser.Close()
	ev, err := eventlog.Open(paths.DataPath("event-log", "events.jsonl"))
	if err != nil {
		return err
	}
	defer ev.Close()
	md, err := store.MarketData()
	if err != nil {
		return err
	}
	m := uta.NewManager(config.NewStore(paths.Config), paths, simmarket.New(md.Seed), ev, logger.With("component", "trading"))
	if err := m.Start(ctx); err != nil {
		return err
	}
	defer m.Close()
	return local(ctx, m)
}
