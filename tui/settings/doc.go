// Package settings is the Settings pane: every settings page (AI
// providers, trading accounts, automation, news, tools, persona,
// connectors) and the small bubbles/textinput form they share
// (settings_form.go). Edits go through the optional SettingsCore with the
// version the page was loaded at, so a changed file is refused.
package settings
