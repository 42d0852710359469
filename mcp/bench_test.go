package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/core"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// BenchmarkToolsCall measures a full tools/call round trip over loopback
// HTTP through a real mcp-go client, including the per-request server
// rebuild, with a small and a realistic (60 tools) catalogue. It reports
// p99 latency next to ns/op.
func BenchmarkToolsCall(b *testing.B) {
	for _, n := range []int{4, 60} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			tc := core.NewToolCenter(nil)
			sampleTools(tc)
			for i := len(tc.Tools()); i < n; i++ {
				tc.Register(core.Tool{
					Name: fmt.Sprintf("filler_%02d", i), Description: "Filler tool with a typical schema.",
					InputSchema: core.Schema(`{"type":"object","properties":{"symbol":{"type":"string"},"qty":{"type":"number"},"limit":{"type":"integer"}},"required":["symbol"]}`),
					Handler:     func(context.Context, json.RawMessage) (any, error) { return "ok", nil },
				})
			}
			srv := NewMain(MainOptions{Listen: Listen{Host: "127.0.0.1"}, Tools: tc, Logger: quietLogger()})
			startServer(b, srv)
			c := connect(b, srv.URL(), nil)
			req := mcpgo.CallToolRequest{}
			req.Params.Name = "echo"
			req.Params.Arguments = map[string]any{"message": "bench"}
			lat := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				res, err := c.CallTool(context.Background(), req)
				if err != nil || res.IsError {
					b.Fatalf("call failed: %v %v", err, res)
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			reportP99(b, lat)
		})
	}
}

// BenchmarkToolsCallParallel runs tools/call from several clients at once.
func BenchmarkToolsCallParallel(b *testing.B) {
	tc := core.NewToolCenter(nil)
	sampleTools(tc)
	srv := NewMain(MainOptions{Listen: Listen{Host: "127.0.0.1"}, Tools: tc, Logger: quietLogger()})
	startServer(b, srv)
	var mu sync.Mutex
	var lat []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		c, err := tryConnect(srv.URL(), nil)
		if err != nil {
			b.Error(err)
			return
		}
		defer c.Close()
		req := mcpgo.CallToolRequest{}
		req.Params.Name = "echo"
		req.Params.Arguments = map[string]any{"message": "bench"}
		var mine []time.Duration
		for pb.Next() {
			start := time.Now()
			if _, err := c.CallTool(context.Background(), req); err != nil {
				b.Error(err)
				return
			}
			mine = append(mine, time.Since(start))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	b.StopTimer()
	reportP99(b, lat)
}

func reportP99(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[(len(lat)*99)/100].Microseconds()), "p99-µs")
}
