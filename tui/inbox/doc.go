// Package inbox is the Inbox pane: pushes from workspace agents with
// their live-rendered documents, unread marks that survive a restart
// (InboxReadCore, optional), delete with confirmation and the jump to the
// entry's workspace. It reaches alice through Core (core.go).
package inbox
