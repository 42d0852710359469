// Package market is the Market pane: symbol search, the quote, candle
// chart with indicator overlays, news, the symbol's position and orders,
// the stage-order form and the simulator controls. It reaches alice
// through the optional MarketCore and SimCore (asserted on the core it is
// given) and the Portfolio pane's account calls.
package market
