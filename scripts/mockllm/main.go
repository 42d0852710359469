// Command mockllm is a scripted OpenAI-compatible chat completions server
// for end-to-end tests of alice without network or keys (the script is in
// package script).
//
// Usage: go run ./scripts/mockllm -addr 127.0.0.1:0 (prints the base URL).
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
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("mockllm listening on http://%s/v1\n", ln.Addr())
	log.Fatal(http.Serve(ln, script.Handler()))
}
