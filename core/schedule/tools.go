package schedule

import (
	"context"
	"encoding/json"

	"github.com/alice-trading/alice/core"
)

const scheduleSchema = `{"type":"object","description":"when the job fires","properties":{"kind":{"type":"string","enum":["at","every","cron","market"]},"market":{"type":"object","description":"kind=market: N minutes before/after the open or close of an account's market, trading days only (weekends, holidays, early closes skipped)","properties":{"account":{"type":"string"},"event":{"type":"string","enum":["open","close"]},"offsetMinutes":{"type":"integer","description":"negative = before, e.g. -15 with event close"}},"required":["account","event"]},"at":{"type":"string","description":"ISO timestamp (kind=at)"},"every":{"type":"string","description":"e.g. 30m, 2h, 5m30s (kind=every)"},"cron":{"type":"string","description":"5-field cron (min hour dom month dow) in local time, e.g. 0 9 * * 1-5; prefix CRON_TZ=America/New_York to pick a zone (kind=cron)"}},"required":["kind"]}`

const targetSchema = `{"type":"object","description":"where the job runs: omit (or kind alice) for Alice herself; kind oneshot runs a headless agent CLI (claude -p, codex exec) or, with agent shell, the payload as a shell command in a workspace (new when workspace is omitted) and puts the files it wrote in the inbox; kind session types the payload into a persistent workspace session and captures the reply","properties":{"kind":{"type":"string","enum":["alice","oneshot","session"]},"workspace":{"type":"string","description":"workspace id or tag"},"agent":{"type":"string","enum":["claude","codex","shell"]},"session":{"type":"string","description":"live session id or name (c1, sh2) for kind session"},"model":{"type":"string","description":"model for the agent CLI"},"timeoutSec":{"type":"integer","minimum":0,"maximum":7200}},"required":["kind"]}`

// RegisterTools adds cronList/cronAdd/cronUpdate/cronRemove/cronRunNow.
func RegisterTools(reg core.ToolRegistry, e *Engine) {
	reg.Register(
		core.Tool{Name: "cronList", Group: "cron", Description: "List scheduled jobs with their state (next run, last status).",
			InputSchema: core.Schema(`{"type":"object","properties":{}}`),
			Handler: func(context.Context, json.RawMessage) (any, error) {
				jobs := e.List()
				if jobs == nil {
					jobs = []Job{}
				}
				return map[string]any{"jobs": jobs}, nil
			}},
		core.Tool{Name: "cronAdd", Group: "cron", Description: "Schedule a job: at a time, every interval, or on a cron expression. The payload is the prompt Alice runs when it fires; replies go to the user's last-used channel.",
			InputSchema: core.Schema(`{"type":"object","properties":{"name":{"type":"string"},"payload":{"type":"string"},"schedule":` + scheduleSchema + `,"enabled":{"type":"boolean"},"target":` + targetSchema + `,"sessionTarget":{"type":"string","enum":["main","isolated"]}},"required":["name","payload","schedule"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				in := struct {
					Name          string    `json:"name"`
					Payload       string    `json:"payload"`
					Schedule      *Schedule `json:"schedule"`
					Enabled       *bool     `json:"enabled"`
					Target        *Target   `json:"target"`
					SessionTarget string    `json:"sessionTarget"`
				}{}
				if err := core.DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				if in.Schedule == nil {
					return nil, errMissingSchedule
				}
				j, err := e.AddTargeted(in.Name, in.Payload, *in.Schedule, in.Enabled == nil || *in.Enabled, in.Target)
				if err != nil {
					return nil, err
				}
				return map[string]any{"id": j.ID, "nextRunAtMs": j.State.NextRunAtMs}, nil
			}},
		core.Tool{Name: "cronUpdate", Group: "cron", Description: "Change a job's name, payload, schedule or enabled flag.",
			InputSchema: core.Schema(`{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"},"payload":{"type":"string"},"schedule":` + scheduleSchema + `,"enabled":{"type":"boolean"},"target":` + targetSchema + `,"sessionTarget":{"type":"string"}},"required":["id"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var in struct {
					ID string `json:"id"`
					JobPatch
					SessionTarget string `json:"sessionTarget"`
				}
				if err := core.DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				return e.Update(in.ID, in.JobPatch)
			}},
		core.Tool{Name: "cronRemove", Group: "cron", Description: "Delete a job.",
			InputSchema: core.Schema(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				id, err := jobID(args)
				if err != nil {
					return nil, err
				}
				if err := e.Remove(id); err != nil {
					return nil, err
				}
				return map[string]any{"removed": id}, nil
			}},
		core.Tool{Name: "cronRunNow", Group: "cron", Description: "Fire a job immediately.",
			InputSchema: core.Schema(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				id, err := jobID(args)
				if err != nil {
					return nil, err
				}
				// Run detached: the job itself calls the agent, and a tool call
				// from inside an agent turn must not wait on another turn.
				if err := e.runDetached(id); err != nil {
					return nil, err
				}
				return map[string]any{"started": id, "note": "the result is delivered to the user's last-used channel"}, nil
			}},
	)
}

// toolError is an error whose text is meant for the model.
type toolError string

func (e toolError) Error() string { return string(e) }

const errMissingSchedule = toolError("schedule is required: {kind:'at',at:ISO} | {kind:'every',every:'30m'} | {kind:'cron',cron:'0 9 * * 1-5'}")

// jobID decodes the {id} argument shared by cronRemove and cronRunNow.
func jobID(args json.RawMessage) (string, error) {
	var in struct {
		ID string `json:"id"`
	}
	if err := core.DecodeArgs(args, &in); err != nil {
		return "", err
	}
	return in.ID, nil
}
