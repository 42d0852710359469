// Command server runs alice's two MCP listeners with demo tools and an
// echo agent (package mcpdemo), for black-box clients and the conformance
// suite. It prints one line per listener ("main <url>", "ask <url>") and
// runs until interrupted.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/alice-trading/alice/mcp"
	"github.com/alice-trading/alice/mcp/mcpdemo"
)

func main() {
	host := flag.String("host", "127.0.0.1", "bind host")
	port := flag.Int("port", 0, "main MCP port (0 = free port)")
	askPort := flag.Int("ask-port", 0, "Ask connector port (0 = free port)")
	token := flag.String("token", "", "optional bearer token for both listeners")
	disabled := flag.String("disabled", "", "comma-separated tool names to disable")
	verbose := flag.Bool("v", false, "debug logging to stderr")
	flag.Parse()

	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	var off []string
	if *disabled != "" {
		off = strings.Split(*disabled, ",")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := mcpdemo.Start(ctx, mcpdemo.Options{
		Main:     mcp.Listen{Host: *host, Port: *port, Token: *token},
		Ask:      mcp.Listen{Host: *host, Port: *askPort, Token: *token},
		Logger:   log,
		Disabled: func() []string { return off },
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	fmt.Println("main", s.Main.URL())
	fmt.Println("ask", s.Ask.URL())
	<-ctx.Done()
	_ = s.Close()
}
