// Command mcp is a bounded load test of alice's MCP tools/call path over
// loopback: N calls spread over C concurrent mcp-go Streamable HTTP clients.
// Without -url it starts the demo listeners (package mcpdemo) in-process.
// It reports requests per second and latency percentiles.
//
//	go run ./bench/mcp -n 20000 -c 8
//	go run ./bench/mcp -url http://127.0.0.1:3001/mcp -tool echo -args '{"message":"x"}'
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alice-trading/alice/mcp"
	"github.com/alice-trading/alice/mcp/mcpdemo"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

type result struct {
	URL         string  `json:"url"`
	Tool        string  `json:"tool"`
	Requests    int     `json:"requests"`
	Concurrency int     `json:"concurrency"`
	Errors      int64   `json:"errors"`
	Seconds     float64 `json:"seconds"`
	RPS         float64 `json:"reqPerSec"`
	P50us       int64   `json:"p50Us"`
	P90us       int64   `json:"p90Us"`
	P99us       int64   `json:"p99Us"`
	MaxUs       int64   `json:"maxUs"`
	GOMAXPROCS  int     `json:"gomaxprocs"`
}

func main() {
	url := flag.String("url", "", "MCP endpoint; empty starts the demo server in-process")
	n := flag.Int("n", 20000, "total tools/call requests")
	conc := flag.Int("c", 8, "concurrent clients")
	tool := flag.String("tool", "echo", "tool to call")
	argsJSON := flag.String("args", `{"message":"bench"}`, "tool arguments as JSON")
	token := flag.String("token", "", "bearer token")
	asJSON := flag.Bool("json", false, "print the result as one JSON line")
	flag.Parse()
	if err := run(*url, *n, *conc, *tool, *argsJSON, *token, *asJSON); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run(url string, n, conc int, tool, argsJSON, token string, asJSON bool) error {
	if n < 1 || conc < 1 {
		return fmt.Errorf("-n and -c must be positive")
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(argsJSON), &args); err != nil {
		return fmt.Errorf("-args: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if url == "" {
		quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
		s, err := mcpdemo.Start(ctx, mcpdemo.Options{Main: mcp.Listen{Host: "127.0.0.1"}, Ask: mcp.Listen{Host: "127.0.0.1"}, Logger: quiet})
		if err != nil {
			return err
		}
		defer s.Close()
		url = s.Main.URL()
	}

	clients := make([]*client.Client, conc)
	for i := range clients {
		c, err := dial(ctx, url, token)
		if err != nil {
			return fmt.Errorf("connect %s: %w", url, err)
		}
		defer c.Close()
		clients[i] = c
	}

	var next, errs atomic.Int64
	lat := make([]time.Duration, n)
	var wg sync.WaitGroup
	start := time.Now()
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := mcpgo.CallToolRequest{}
			req.Params.Name = tool
			req.Params.Arguments = args
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				t0 := time.Now()
				res, err := c.CallTool(ctx, req)
				lat[i] = time.Since(t0)
				if err != nil || res.IsError {
					errs.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(lat)
	pct := func(p int) int64 { return lat[min(len(lat)-1, len(lat)*p/100)].Microseconds() }
	r := result{
		URL: url, Tool: tool, Requests: n, Concurrency: conc, Errors: errs.Load(),
		Seconds: elapsed.Seconds(), RPS: float64(n) / elapsed.Seconds(),
		P50us: pct(50), P90us: pct(90), P99us: pct(99), MaxUs: lat[len(lat)-1].Microseconds(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
	}
	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(r)
	}
	fmt.Printf("tools/call %q on %s: %d requests, %d clients, %d errors\n", tool, url, n, conc, r.Errors)
	fmt.Printf("  %.0f req/s over %.2fs  p50 %dµs  p90 %dµs  p99 %dµs  max %dµs  (GOMAXPROCS=%d)\n",
		r.RPS, r.Seconds, r.P50us, r.P90us, r.P99us, r.MaxUs, r.GOMAXPROCS)
	if r.Errors > 0 {
		return fmt.Errorf("%d calls failed", r.Errors)
	}
	return nil
}

func dial(ctx context.Context, url, token string) (*client.Client, error) {
	var opts []transport.StreamableHTTPCOption
	if token != "" {
		opts = append(opts, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	}
	c, err := client.NewStreamableHttpClient(url, opts...)
	if err != nil {
		return nil, err
	}
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "alice-bench", Version: "0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}
