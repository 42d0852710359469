package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/alice-trading/alice/core/connector/telegram"
	"github.com/alice-trading/alice/core/jsonl"
)

// checkTelegram probes the Bot API with the configured token (getMe) and,
// when an alice is running, adds what that instance last recorded about
// its link (connector.up / connector.down in the event log, read only).
func (d *doctorRun) checkTelegram(ctx context.Context) checkResult {
	r := checkResult{Name: "telegram"}
	if !d.configOK {
		r.State, r.Detail = checkSkip, "skipped (config has errors)"
		return r
	}
	c, err := d.store.Connectors()
	if err != nil || !c.Telegram.Enabled {
		r.State, r.Detail = checkSkip, "off (connectors.json telegram.enabled)"
		return r
	}
	base := c.Telegram.APIBaseURL
	if base == "" {
		base = "https://api.telegram.org"
	}
	running := ""
	if d.owner != nil {
		running = d.runningTelegram()
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	me, err := telegram.Probe(ctx, c.Telegram)
	if err != nil {
		r.State = checkFail
		r.Detail = fmt.Sprintf("the Bot API at %s did not answer getMe: %v", base, err)
		if running != "" {
			r.Detail += "; " + running
		}
		r.Fix = "check telegram.botToken and the network (or apiBaseUrl) in " + d.store.Path("connectors.json") + "; a running alice retries with backoff (every ≤15 s) and reconnects by itself"
		return r
	}
	r.State = checkOK
	r.Detail = fmt.Sprintf("%s answers getMe as @%s", base, me.Username)
	if running != "" {
		r.Detail += "; " + running
	}
	return r
}

// runningTelegram describes the running alice's last recorded Telegram
// link event ("" when it recorded none).
func (d *doctorRun) runningTelegram() string {
	path := filepath.Join(d.paths.Data, "event-log", "events.jsonl")
	sc, err := jsonl.Backward(path)
	if err != nil {
		return ""
	}
	defer sc.Close()
	for n := 0; sc.Scan() && n < 5000; n++ {
		var e struct {
			TS      int64  `json:"ts"`
			Type    string `json:"type"`
			Payload struct {
				Channel string `json:"channel"`
				Error   string `json:"error"`
				Bot     string `json:"bot"`
				Attempt int    `json:"attempt"`
			} `json:"payload"`
		}
		if json.Unmarshal(sc.Line(), &e) != nil {
			continue
		}
		if !d.owner.Started.IsZero() && time.UnixMilli(e.TS).Before(d.owner.Started) {
			return "" // older than the running instance
		}
		if e.Payload.Channel != telegram.Channel {
			continue
		}
		at := time.UnixMilli(e.TS).Format("15:04:05")
		switch e.Type {
		case "connector.down":
			return fmt.Sprintf("the running alice (pid %d) lost the link at %s (%s) and is retrying", d.owner.PID, at, e.Payload.Error)
		case "connector.up":
			return fmt.Sprintf("the running alice (pid %d) is connected as @%s since %s", d.owner.PID, e.Payload.Bot, at)
		}
	}
	return ""
}
