package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
)

// TestWebhookQueueSurvivesKillAndSIGTERM is the durability check against
// the real binary: 200 task.requested webhooks (each with its own
// Idempotency-Key), then kill -9 (and, separately, SIGTERM) while most are
// still queued. After a restart every acknowledged task has exactly one
// outcome event and was started at most once, and resending a key is
// answered as a duplicate and not run again. The model is scripts/mockllm.
func TestWebhookQueueSurvivesKillAndSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := buildAlice(t)
	llm := startMockLLM(t)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			home := apptest.Home(t, map[string]string{
				"ai-provider.json": fmt.Sprintf(`{"activeProfile":"mock","profiles":{"mock":{"backend":"openai","model":"mock","baseUrl":%q}}}`, llm),
				"webhook.json":     `{"tokens":[{"id":"ci","token":"queue-e2e-token","createdAt":1}]}`,
			})
			srv := startServe(t, bin, home)
			const n = 200
			t0 := time.Now()
			acked := postTasks(t, srv.base, n)
			t.Logf("%d webhooks acknowledged in %v", len(acked), time.Since(t0).Round(time.Millisecond))
			require.Len(t, acked, n, "every webhook is acknowledged (the queue holds 512)")
			require.NoError(t, srv.cmd.Process.Signal(sig))
			_ = srv.cmd.Wait()
			before := outcomeCounts(t, home)
			t.Logf("%s after %d acknowledged webhooks: %d had an outcome before the restart", sig, n, len(before.outcome))

			t0 = time.Now()
			srv = startServe(t, bin, home)
			deadline := time.Now().Add(90 * time.Second)
			var c counts
			for {
				c = outcomeCounts(t, home)
				all := true
				for id := range acked {
					if c.outcome[id] == 0 {
						all = false
						break
					}
				}
				if all {
					break
				}
				require.True(t, time.Now().Before(deadline), "not every acknowledged task has an outcome after the restart")
				time.Sleep(50 * time.Millisecond) // polling the event log file
			}
			t.Logf("every acknowledged task had its outcome %v after the restart began", time.Since(t0).Round(time.Millisecond))
			byType := map[string]int{}
			for id := range acked {
				require.Equal(t, 1, c.outcome[id], "task %s: exactly one outcome event", id)
				require.LessOrEqual(t, c.started[id], 1, "task %s: started at most once", id)
				byType[c.kind[id]]++
			}
			t.Logf("%s: outcomes after restart %v", sig, byType)

			// A repeated key is a duplicate, answered without running again.
			code, body := postTask(t, srv.base, "key-7")
			require.Equal(t, http.StatusOK, code, body)
			require.Contains(t, body, `"duplicate":true`)
			// A fresh task queued after it runs after anything the duplicate
			// could wrongly have queued (one FIFO lane): once it has its
			// outcome, the count says whether the duplicate ran.
			code, body = postTask(t, srv.base, "after-the-duplicate")
			require.Equal(t, http.StatusCreated, code, body)
			var fresh struct {
				TaskID string `json:"taskId"`
			}
			require.NoError(t, json.Unmarshal([]byte(body), &fresh))
			var c2 counts
			for c2 = outcomeCounts(t, home); c2.outcome[fresh.TaskID] == 0; c2 = outcomeCounts(t, home) {
				require.True(t, time.Now().Before(deadline.Add(30*time.Second)), "the fresh task ran")
				time.Sleep(50 * time.Millisecond) // polling the event log file
			}
			require.Equal(t, c.total+1, c2.total, "only the fresh task recorded an outcome; the duplicate did not run")
			require.NoError(t, srv.cmd.Process.Signal(syscall.SIGTERM))
			require.NoError(t, srv.cmd.Wait())
		})
	}
}

type served struct {
	cmd  *exec.Cmd
	base string
}

// startServe runs `alice serve` on home and returns once it is serving.
func startServe(t *testing.T, bin, home string) served {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--home", home)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	base := ""
	for sc.Scan() {
		l := sc.Text()
		if u, ok := strings.CutPrefix(l, "MCP listening on "); ok {
			base = strings.TrimSuffix(u, "/mcp")
		}
		if strings.Contains(l, "serving") {
			break
		}
	}
	require.NotEmpty(t, base, "alice serve printed its MCP listener")
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	return served{cmd: cmd, base: base}
}

// postTasks sends n webhooks with keys key-0…key-n-1 from 8 clients and
// returns the acknowledged task ids.
func postTasks(t *testing.T, base string, n int) map[string]bool {
	t.Helper()
	var mu sync.Mutex
	acked := map[string]bool{}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				code, body := postTask(t, base, fmt.Sprintf("key-%d", i))
				if code != http.StatusCreated {
					continue
				}
				var r struct {
					TaskID string `json:"taskId"`
				}
				if json.Unmarshal([]byte(body), &r) == nil && r.TaskID != "" {
					mu.Lock()
					acked[r.TaskID] = true
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return acked
}

func postTask(t *testing.T, base, key string) (int, string) {
	body := fmt.Sprintf(`{"type":"task.requested","payload":{"prompt":"queue check %s"}}`, key)
	req, err := http.NewRequest(http.MethodPost, base+"/api/events/ingest", strings.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Authorization", "Bearer queue-e2e-token")
	req.Header.Set("Idempotency-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

type counts struct {
	outcome, started map[string]int
	kind             map[string]string
	total            int
}

// outcomeCounts reads the event log file and counts, per task id, outcome
// and started events.
func outcomeCounts(t *testing.T, home string) counts {
	t.Helper()
	paths := apptest.Paths(t, home)
	b, err := os.ReadFile(filepath.Join(paths.Data, "event-log", "events.jsonl"))
	if os.IsNotExist(err) {
		return counts{outcome: map[string]int{}, started: map[string]int{}, kind: map[string]string{}}
	}
	require.NoError(t, err)
	c := counts{outcome: map[string]int{}, started: map[string]int{}, kind: map[string]string{}}
	for _, line := range bytes.Split(b, []byte("\n")) {
		var e struct {
			Type    string `json:"type"`
			Payload struct {
				TaskID string `json:"taskId"`
			} `json:"payload"`
		}
		if json.Unmarshal(line, &e) != nil || e.Payload.TaskID == "" {
			continue
		}
		switch e.Type {
		case "agent.work.done", "agent.work.skip", "agent.work.error", "agent.work.abandoned":
			c.outcome[e.Payload.TaskID]++
			c.kind[e.Payload.TaskID] = e.Type
			c.total++
		case "agent.work.started":
			c.started[e.Payload.TaskID]++
		}
	}
	return c
}

// startMockLLM builds and runs scripts/mockllm on a free port and returns
// its base URL.
func startMockLLM(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(buildMockLLM(t), "-addr", "127.0.0.1:0", "-word-delay", "0")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	sc := bufio.NewScanner(out)
	require.True(t, sc.Scan(), "mockllm printed its address")
	fields := strings.Fields(sc.Text())
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return fields[len(fields)-1]
}
