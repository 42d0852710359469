package app

import "github.com/alice-trading/alice/core/connector/telegram"

// TelegramCommands lets the external tests (package app_test, which start
// the core through apptest) drive the commands the Telegram bot sees.
func TelegramCommands(a *App) telegram.SettingsCommands { return telegramCommands{a} }
