// Package chat is the Chat pane: the transcript of an agent session
// (rendered once per width and anchored so a frame touches only the
// visible messages), the multi-line input with history, pasted
// attachments and the external editor, streaming replies with tool calls
// and images, slash commands and compaction. It reaches alice through
// Core (declared in core.go) and the root through kit.Host.
package chat
