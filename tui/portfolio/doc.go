// Package portfolio is the Portfolio pane: accounts, positions with
// sparklines, open orders, the equity curve, the trading log, and the
// approval of pending commits (approve/reject through a confirmation).
// Its data types (AccountSummary, Position, Order…) are reused by the
// Market pane. It reaches alice through Core (core.go) and the optional
// SnapshotCore, PositionHistoryCore, HistoryCore and HaltCore (the kill
// switch: its state is read with every load, shown in the account header
// and, through Halted, in the root's status bar).
package portfolio
