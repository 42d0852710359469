package settings

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// The Automation page: row 0 is the heartbeat, rows 1.. are cron jobs.

func (p *Pane) selectedJob() (CronJobSetting, bool) {
	i := p.sel - 1
	if i >= 0 && i < len(p.jobs) {
		return p.jobs[i], true
	}
	return CronJobSetting{}, false
}

func (p *Pane) automationKey(k tea.KeyPressMsg) tea.Cmd {
	ks, sc := p.keys, p.sc
	job, isJob := p.selectedJob()
	onHeartbeat := p.sel == 0
	switch {
	case key.Matches(k, ks.Add):
		p.Form = p.cronForm(CronJobInput{Enabled: true, Schedule: "0 9 * * 1-5"})
		return p.Form.changed()
	case key.Matches(k, ks.Edit) && onHeartbeat:
		p.Form = p.heartbeatForm()
	case key.Matches(k, ks.Edit) && isJob:
		p.Form = p.cronForm(CronJobInput{ID: job.ID, Name: job.Name, Schedule: job.Schedule, Prompt: job.Prompt, Target: job.Target, Enabled: job.Enabled})
		return p.Form.changed()
	case key.Matches(k, ks.Toggle) && onHeartbeat:
		hb := p.hb
		hb.Enabled = !hb.Enabled
		return p.do(false, func(context.Context) (string, error) {
			return "heartbeat " + onOff(hb.Enabled), sc.SaveHeartbeat(hb.Version, hb)
		})
	case key.Matches(k, ks.Toggle) && isJob:
		id, on := job.ID, !job.Enabled
		return p.do(false, func(context.Context) (string, error) {
			return fmt.Sprintf("job %s %s", job.Name, onOff(on)), sc.SetCronEnabled(id, on)
		})
	case key.Matches(k, ks.RunNow) && isJob:
		id, name := job.ID, job.Name
		p.progress("running " + name + "…")
		return p.do(false, func(ctx context.Context) (string, error) {
			out, err := sc.RunCronNow(ctx, id)
			return "ran " + name + ": " + out, err
		})
	case key.Matches(k, ks.Delete) && isJob:
		id, name := job.ID, job.Name
		p.m.OpenDialog("Delete cron job?", fmt.Sprintf("Delete %q (%s)?", name, job.Schedule),
			p.do(false, func(context.Context) (string, error) { return "deleted job " + name, sc.DeleteCronJob(id) }))
	}
	return nil
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// cronForm adds (ID "") or edits a job with a live preview of the next
// five run times.
func (p *Pane) cronForm(in CronJobInput) *settingsForm {
	sc := p.sc
	title := "Add cron job"
	if in.ID != "" {
		title = "Edit cron job " + in.Name
	}
	f := newSettingsForm(p.keys, title, "The prompt runs as an agent turn; the result is notified.", []formField{
		textField("name", "Name", in.Name, ""),
		textField("schedule", "Schedule", in.Schedule, `cron "0 9 * * 1-5", "every 30m", "15m before close of sim-paper", or a time 2026-12-01T09:30:00Z`),
		textField("prompt", "Prompt", in.Prompt, "what the agent should do"),
		textField("target", "Runs in", in.Target, `alice, "oneshot shell", "oneshot claude in <workspace>", "session claude in <workspace>"`),
		boolField("enabled", "Enabled", in.Enabled),
	}, nil)
	f.submit = func(v map[string]string) tea.Cmd {
		job := CronJobInput{ID: in.ID, Name: v["name"], Schedule: v["schedule"], Prompt: v["prompt"], Target: v["target"], Enabled: v["enabled"] == "yes"}
		return p.do(true, func(context.Context) (string, error) { return "saved job " + job.Name, sc.SaveCronJob(job) })
	}
	st := p.m.Styles()
	f.change = func(v map[string]string) tea.Cmd {
		expr, form, seq := v["schedule"], f, f.Seq
		return func() tea.Msg {
			times, err := sc.PreviewSchedule(expr, 5)
			if err != nil {
				return SettingsPreviewMsg{Form: form, Seq: seq, Text: st.Error.Render("✗ " + err.Error())}
			}
			var b strings.Builder
			b.WriteString(st.Accent.Render("Next runs") + "\n")
			for _, t := range times {
				b.WriteString("  " + t.Format("Mon 2006-01-02 15:04 MST") + "\n")
			}
			return SettingsPreviewMsg{Form: form, Seq: seq, Text: strings.TrimRight(b.String(), "\n")}
		}
	}
	return f
}

func (p *Pane) heartbeatForm() *settingsForm {
	sc, hb := p.sc, p.hb
	return newSettingsForm(p.keys, "Heartbeat", "A periodic agent check-in; it notifies you only when something matters.", []formField{
		boolField("enabled", "Enabled", hb.Enabled),
		textField("every", "Interval", hb.Every, "e.g. 30m, 1h, 2h30m"),
		textField("start", "Active from", hb.Start, "HH:MM, empty = always active"),
		textField("end", "Active until", hb.End, "HH:MM (may wrap past midnight)"),
		textField("timezone", "Timezone", hb.Timezone, "IANA name like Europe/Berlin, or local"),
		textField("prompt", "Prompt", hb.Prompt, ""),
	}, func(v map[string]string) tea.Cmd {
		out := HeartbeatSetting{Version: hb.Version, Enabled: v["enabled"] == "yes", Every: v["every"], Prompt: v["prompt"],
			Start: v["start"], End: v["end"], Timezone: v["timezone"]}
		return p.do(true, func(context.Context) (string, error) { return "heartbeat saved", sc.SaveHeartbeat(hb.Version, out) })
	})
}

func (p *Pane) automationView() string {
	st := p.m.Styles()
	var b strings.Builder
	b.WriteString(st.Title.Render("Heartbeat") + "\n")
	hours := "always"
	if p.hb.Start != "" {
		hours = fmt.Sprintf("%s–%s %s", p.hb.Start, p.hb.End, kit.OrDash(p.hb.Timezone))
	}
	hbLine := fmt.Sprintf("%-4s every %-8s active %s", onOff(p.hb.Enabled), p.hb.Every, hours)
	b.WriteString(p.row(0, hbLine) + "\n\n")
	b.WriteString(st.Title.Render("Cron jobs") + "\n")
	if len(p.jobs) == 0 {
		b.WriteString(st.Muted.Render("  No jobs. Press a to add one.") + "\n")
	}
	for i, j := range p.jobs {
		next := "—"
		if !j.Next.IsZero() {
			next = j.Next.Format("01-02 15:04")
		}
		last := "never run"
		if !j.LastRun.IsZero() {
			last = j.LastRun.Format("01-02 15:04") + " " + kit.OrDash(j.LastStatus)
		}
		line := kit.Cell(onOff(j.Enabled), 4) + " " + kit.Cell(j.Name, 18) + " " + kit.Cell(j.Schedule, 16) + " next " + kit.Cell(next, 11) + " last " + last
		b.WriteString(p.row(i+1, line) + "\n")
	}
	if j, ok := p.selectedJob(); ok {
		b.WriteString("\n" + st.Muted.Render("prompt: "+clipText(j.Prompt, max(20, p.w-10))))
		if j.Target != "" && j.Target != "alice" {
			b.WriteString("\n" + st.Muted.Render("runs in: "+j.Target))
		}
	}
	return b.String()
}
