package app

import (
	"github.com/alice-trading/alice/core/connector/telegram"
	"github.com/alice-trading/alice/core/schedule"
	"github.com/alice-trading/alice/trading/uta"
)

// TelegramCommands lets the external tests (package app_test, which start
// the core through apptest) drive the commands the Telegram bot sees.
func TelegramCommands(a *App) telegram.SettingsCommands { return telegramCommands{a} }

// TradingManager lets external tests act as the venue (move the
// simulator's prices, place an order outside alice): what no surface may
// do, so it is not part of the Trading service.
func TradingManager(a *App) *uta.Manager { return a.trading }

// MarketCalendar exposes the accounts' market calendar to external tests.
func MarketCalendar(a *App) schedule.MarketCalendar { return marketCalendar{a} }
