// Package workspaces is the Workspaces pane: the workspace list and
// create form, the sessions list with start/stop/restart/archive/delete,
// the live terminal view (Terminal, throttled redraws, attach/detach),
// the scrollback viewer, the send line, agent states and the diff view
// with commit/discard, and the files/git views. It reaches alice through
// Core (core.go) and the optional SessionCore and AgentCore.
package workspaces
