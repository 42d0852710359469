package wsapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/alice-trading/alice/workspace"
)

// Routes served by Handler (mount each on the main listener behind the
// MCP protections).
var Routes = []string{"GET /api/workspaces", "POST /api/workspaces", "DELETE /api/workspaces/{id}", "POST /api/workspaces/{id}/send", "POST /api/workspaces/{id}/run"}

// Handler serves the workspace API over a Backend (normally Service).
func Handler(b Backend) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/workspaces", func(w http.ResponseWriter, r *http.Request) {
		list, err := b.List(r.Context())
		reply(w, http.StatusOK, list, err)
	})
	mux.HandleFunc("POST /api/workspaces", func(w http.ResponseWriter, r *http.Request) {
		var req CreateRequest
		if err := decode(r, &req); err != nil {
			reply(w, 0, nil, err)
			return
		}
		in, err := b.Create(r.Context(), req.Tag, req.Template)
		reply(w, http.StatusCreated, in, err)
	})
	mux.HandleFunc("DELETE /api/workspaces/{id}", func(w http.ResponseWriter, r *http.Request) {
		err := b.Remove(r.Context(), r.PathValue("id"), r.URL.Query().Get("removeDir") == "1")
		reply(w, http.StatusOK, map[string]bool{"removed": true}, err)
	})
	mux.HandleFunc("POST /api/workspaces/{id}/send", func(w http.ResponseWriter, r *http.Request) {
		var req SendRequest
		if err := decode(r, &req); err != nil {
			reply(w, 0, nil, err)
			return
		}
		err := b.Send(r.Context(), r.PathValue("id"), req)
		reply(w, http.StatusOK, map[string]bool{"sent": true}, err)
	})
	mux.HandleFunc("POST /api/workspaces/{id}/run", func(w http.ResponseWriter, r *http.Request) {
		var req RunRequest
		if err := decode(r, &req); err != nil {
			reply(w, 0, nil, err)
			return
		}
		res, err := b.Run(r.Context(), r.PathValue("id"), req)
		reply(w, http.StatusOK, res, err)
	})
	return mux
}

func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(io.LimitReader(r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errors.Join(ErrBadRequest, err)
	}
	return nil
}

// apiError is the body of every failed request.
type apiError struct {
	Error string `json:"error"`
}

func statusOf(err error) int {
	switch {
	case errors.Is(err, ErrBadRequest):
		return http.StatusBadRequest
	case errors.Is(err, workspace.ErrWorkspaceNotFound), errors.Is(err, workspace.ErrSessionNotFound):
		return http.StatusNotFound
	case errors.Is(err, workspace.ErrTagTaken):
		return http.StatusConflict
	}
	return http.StatusInternalServerError
}

func reply(w http.ResponseWriter, status int, v any, err error) {
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		w.WriteHeader(statusOf(err))
		_ = json.NewEncoder(w).Encode(apiError{err.Error()})
		return
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
