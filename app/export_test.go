package app

import (
	"github.com/alice-trading/alice/core/connector/telegram"
	"github.com/alice-trading/alice/core/schedule"
)

// TelegramCommands lets the external tests (package app_test, which start
// the core through apptest) drive the commands the Telegram bot sees.
func TelegramCommands(a *App) telegram.SettingsCommands { return telegramCommands{a} }

// MarketCalendar exposes the accounts' market calendar to external tests.
func MarketCalendar(a *App) schedule.MarketCalendar { return marketCalendar{a} }
