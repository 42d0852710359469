package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/user"
	"sort"
	"strings"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading/uta"
)

// Kill switch routes on the main listener (behind the MCP port's Host,
// Origin and token checks), for `alice halt` / `alice resume` while alice
// runs. The body only carries the reason: {"reason": "..."}; who acted is
// decided here, never taken from the caller.
//
// Resume lifts a person's kill switch, so it also needs the operator key
// (config.OperatorKeyFile, 0600 in the data dir, fresh each start) in the
// config.OperatorKeyHeader header: only the person's CLI on this machine
// reads it; MCP tools and agents are never given it. Halt needs no key (a
// halt only makes things safer) but without it is recorded as coming from
// an HTTP client, not a person.
const (
	HaltRoute   = "POST /api/trading/halt"
	ResumeRoute = "POST /api/trading/resume"
)

// HaltRequest is the body of both routes.
type HaltRequest struct {
	Reason string `json:"reason,omitempty"`
}

// Actors recorded for the kill-switch routes.
const (
	httpClientActor = "an HTTP client of the MCP listener (no operator key)"
)

// cliActor names who the halt API knows the caller to be: a holder of
// the operator key, which alice CLI reads from the data dir as this user.
// That is all the key proves (it says nothing of which program sent it),
// so the record says so rather than naming the person.
func cliActor() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return "operator key (alice CLI as " + u.Username + ")"
	}
	return "operator key (alice CLI)"
}

func (a *App) mountHaltAPI() error {
	key, err := config.NewOperatorKey(a.opts.Paths.Data)
	if err != nil {
		return fmt.Errorf("operator key: %w", err)
	}
	read := func(w http.ResponseWriter, r *http.Request) (HaltRequest, bool) {
		var req HaltRequest
		dec := json.NewDecoder(io.LimitReader(r.Body, 64<<10))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil && !errors.Is(err, io.EOF) {
			http.Error(w, `body must be {"reason": "<why>"} (who acted is not the caller's to say)`, http.StatusBadRequest)
			return req, false
		}
		return req, true
	}
	fromPerson := func(r *http.Request) bool {
		return config.OperatorKeyMatches(key, r.Header.Get(config.OperatorKeyHeader))
	}
	a.mcp.HandleProtected(HaltRoute, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, ok := read(w, r)
		if !ok {
			return
		}
		by := httpClientActor
		if fromPerson(r) {
			by = cliActor()
		}
		rep, err := a.trading.Halt(r.Context(), by, req.Reason)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(rep)
	}))
	a.mcp.HandleProtected(ResumeRoute, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !fromPerson(r) {
			a.log.Warn("Refused a resume without the operator key", "remote", r.RemoteAddr)
			http.Error(w, "only a person lifts the kill switch: run alice resume on this machine (it presents the operator key from the data dir)", http.StatusForbidden)
			return
		}
		if _, ok := read(w, r); !ok {
			return
		}
		st, err := a.trading.Resume(cliActor())
		if err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(st)
	}))
	return nil
}

// HaltSummary renders a halt report for people (CLI, Telegram).
func HaltSummary(rep uta.HaltReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Trading halted since %s by %s: no account stages anything until a person resumes.\n", rep.State.At.UTC().Format("2006-01-02 15:04:05 UTC"), rep.State.By)
	ids := make([]string, 0, len(rep.Cancelled))
	for id := range rep.Cancelled {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(&b, "  %s: %d resting order(s) cancelled", id, rep.Cancelled[id])
		if e := rep.Errors[id]; e != "" {
			fmt.Fprintf(&b, " — ERROR: %s", e)
		}
		b.WriteString("\n")
	}
	for _, w := range rep.Withdrawn {
		fmt.Fprintf(&b, "  withdrawn (was awaiting approval): %s\n", w)
	}
	return b.String()
}
