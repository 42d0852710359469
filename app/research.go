package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"

	"github.com/alice-trading/alice/trading/analysis"
	"github.com/alice-trading/alice/trading/marketdata"
	"github.com/alice-trading/alice/trading/news"
	"github.com/alice-trading/alice/trading/research"
	"github.com/alice-trading/alice/trading/yahoo"
)

// buildResearch wires market data, the indicator calculator and news. The
// simulated backend shares a.market with the simulated broker, so research
// and the paper portfolio see the same prices.
func (a *App) buildResearch() error {
	o := a.opts
	mdCfg, err := o.Store.MarketData()
	if err != nil {
		return err
	}
	rCfg, err := o.Store.Research()
	if err != nil {
		return err
	}
	// One Yahoo client (one cache, one rate limit) when market data and
	// research both read Yahoo at the same address.
	var yc *yahoo.Client
	if (mdCfg.Backend == "yahoo" || mdCfg.Backend == "auto") && (rCfg.Yahoo.BaseURL == "" || rCfg.Yahoo.BaseURL == mdCfg.BaseURL) {
		if yc, err = yahoo.New(yahoo.Options{BaseURL: mdCfg.BaseURL}); err != nil {
			return fmt.Errorf("market data: %w", err)
		}
	}
	src, err := marketdata.Open(mdCfg, a.market, marketdata.Options{Yahoo: yc, Logger: a.log.With("component", "market-data"), Getenv: a.creds.getenv})
	if err != nil {
		return fmt.Errorf("market data: %w", err)
	}
	a.realPrices.src = src
	marketdata.RegisterTools(a.tools, src)
	analysis.RegisterTools(a.tools, analysis.NewEvaluator(src, nil))

	if rCfg.Enabled {
		svc, err := research.New(rCfg, research.Options{Yahoo: yc})
		if err != nil {
			return fmt.Errorf("research: %w", err)
		}
		research.RegisterTools(a.tools, svc)
	}

	newsCfg, err := o.Store.News()
	if err != nil {
		return err
	}
	if !newsCfg.Enabled {
		return nil
	}
	archive, err := news.OpenArchive(o.Paths.DataPath("news", "archive.jsonl"), newsCfg.MaxInMemory, a.log.With("component", "news"))
	if err != nil {
		return fmt.Errorf("news archive: %w", err)
	}
	a.news = news.NewCollector(o.Store, archive, news.CollectorOptions{Logger: a.log.With("component", "news")})
	news.RegisterTools(a.tools, news.NewSearcher(archive, nil))
	return nil
}

// startResearch starts the news collector.
func (a *App) startResearch(ctx context.Context) error {
	if a.news == nil {
		return nil
	}
	if err := a.news.Start(ctx); err != nil {
		return err
	}
	a.onClose("news", func(context.Context) error { return a.news.Close() })
	return nil
}

// realPriceFeed gives simulator accounts with prices: "real" the market
// data backend's real quotes; a simulated answer (the auto backend's
// fallback, or the simulated backend) is no real price.
type realPriceFeed struct{ src marketdata.Source }

func (f *realPriceFeed) RealPrice(ctx context.Context, symbol string, class trading.AssetClass) (decimal.Decimal, error) {
	if f.src == nil {
		return decimal.Zero, errors.New("market data is not open yet")
	}
	q, err := f.src.Quote(ctx, symbol, class)
	if err != nil {
		return decimal.Zero, err
	}
	if q.Simulated || !q.Last.IsPositive() {
		return decimal.Zero, fmt.Errorf("no real price for %s (%s answered)", symbol, q.Source)
	}
	return q.Last, nil
}
