package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/alice-trading/alice/config"
)

// Channels reads channels.json with its version.
func (s *Service) Channels() (config.Channels, config.Version, error) {
	return config.LoadVersioned(s.store, config.ChannelsFile, config.DefaultChannels)
}

// ChannelEdit is what the Settings page changes on one channel.
type ChannelEdit struct {
	Label         string
	Profile       string // "" = the active profile (or ai-provider.json's channels map)
	Persona       string // added to the persona in this channel
	DisabledTools []string
	Archived      bool
}

// SaveChannel writes edit into channel id's channels.json entry, adding
// the entry on the first edit (the default channel, a tui/<name> session
// made before channels existed, Telegram, Ask: fallbackLabel labels it).
// base is the version the caller read ("" skips the conflict check). The
// result is checked with the one check (`alice check`, start-up) with the
// new channels.json in place, so a profile missing from ai-provider.json,
// a label already used by another channel or archiving the default
// channel are refused with the file and key named, and nothing is written.
func (s *Service) SaveChannel(base config.Version, id, fallbackLabel string, edit ChannelEdit) error {
	if !config.ValidChannelID(id) {
		return fmt.Errorf("%q is not a channel id", id)
	}
	label := strings.TrimSpace(edit.Label)
	if label == "" {
		return &config.Error{File: s.store.Path(config.ChannelsFile), Key: "label", Msg: "a channel needs a name"}
	}
	var tools []string
	for _, t := range edit.DisabledTools {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(tools, t) {
			tools = append(tools, t)
		}
	}
	slices.Sort(tools)
	_, _, err := config.Edit(s.store, config.ChannelsFile, base, config.DefaultChannels, func(c *config.Channels) error {
		i := slices.IndexFunc(c.Channels, func(e config.Channel) bool { return e.ID == id })
		if i < 0 {
			c.Channels = append(c.Channels, config.Channel{ID: id, Label: strings.TrimSpace(fallbackLabel)})
			i = len(c.Channels) - 1
		}
		e := &c.Channels[i]
		e.Label, e.Profile, e.Persona = label, strings.TrimSpace(edit.Profile), strings.TrimSpace(edit.Persona)
		e.DisabledTools, e.Archived = tools, edit.Archived
		data, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			return err
		}
		return s.ValidateDraft(config.ChannelsFile, data)
	})
	if err == nil {
		s.changed(config.ChannelsFile)
	}
	return err
}

// ChannelField returns the ChannelEdit field a SaveChannel error is
// about ("label", "profile", "disabledTools", "archived", or "").
func ChannelField(err error) string {
	var ce *config.Error
	if !errors.As(err, &ce) {
		return ""
	}
	for _, f := range []string{"label", "profile", "disabledTools", "archived", "persona"} {
		if strings.HasSuffix(ce.Key, "."+f) || ce.Key == f || strings.Contains(ce.Key, "."+f+"[") {
			return f
		}
	}
	return ""
}
