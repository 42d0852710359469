package app

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/alice-trading/alice/trading/uta"
)

// Kill switch routes on the main listener (behind the MCP port's Host,
// Origin and token checks), for `alice halt` / `alice resume` while alice
// runs. The body names the person: {"by": "...", "reason": "..."}.
const (
	HaltRoute   = "POST /api/trading/halt"
	ResumeRoute = "POST /api/trading/resume"
)

// HaltRequest is the body of both routes.
type HaltRequest struct {
	By     string `json:"by"`
	Reason string `json:"reason,omitempty"`
}

func (a *App) mountHaltAPI() {
	read := func(w http.ResponseWriter, r *http.Request) (HaltRequest, bool) {
		var req HaltRequest
		dec := json.NewDecoder(io.LimitReader(r.Body, 64<<10))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil || strings.TrimSpace(req.By) == "" {
			http.Error(w, `body must be {"by": "<who>", "reason": "<why>"}`, http.StatusBadRequest)
			return req, false
		}
		return req, true
	}
	a.mcp.HandleProtected(HaltRoute, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, ok := read(w, r)
		if !ok {
			return
		}
		rep, err := a.trading.Halt(r.Context(), req.By, req.Reason)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(rep)
	}))
	a.mcp.HandleProtected(ResumeRoute, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, ok := read(w, r)
		if !ok {
			return
		}
		st, err := a.trading.Resume(req.By)
		if err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(st)
	}))
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
