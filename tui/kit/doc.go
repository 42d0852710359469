// Package kit is the small toolkit every TUI pane shares: the colour
// palette (Styles, rebuilt on the terminal's background), every key binding
// with its help text (KeyMap), the Pane interface and the Host interface
// through which a pane reaches the root model (dialogs, progress, focus,
// clock), palette actions (Action, Press), the messages a pane returns
// for the root to show (FlashMsg, ErrMsg, FocusWorkspaceMsg), toasts and
// the progress line, charts, and money/P&L and text helpers. It imports
// no pane and no root package.
package kit
