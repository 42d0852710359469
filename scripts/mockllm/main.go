// Command mockllm is a scripted OpenAI-compatible chat completions server
// for end-to-end tests of alice without network or keys (the script is in
// package script).
//
// Usage: go run ./scripts/mockllm -addr 127.0.0.1:0 [-word-delay 0] (prints
// the base URL; -word-delay paces streamed words, 15ms by default).
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"

	"github.com/alice-trading/alice/scripts/mockllm/script"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	delay := flag.Duration("word-delay", script.DefaultWordDelay, "pause between streamed words (0 for load tests)")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("mockllm listening on http://%s/v1\n", ln.Addr())
	log.Fatal(http.Serve(ln, script.HandlerWithDelay(*delay)))
}
