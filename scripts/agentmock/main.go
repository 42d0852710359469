// Command agentmock is a local stand-in for the Anthropic and OpenAI APIs
// that the real claude and codex CLIs talk to, so that their TUIs can be
// recorded answering a prompt without network or keys (the screen corpus
// of workspace TestScreenCorpus; scripts/terminal/record-agents.sh starts
// it). It listens on loopback only and never calls out.
//
// It speaks two streaming wire formats:
//   - Anthropic Messages (claude, ANTHROPIC_BASE_URL=http://ADDR):
//     POST /v1/messages with "stream":true answers server-sent events
//     message_start, content_block_start, ping, content_block_delta
//     (text_delta) per word, content_block_stop, message_delta
//     (stop_reason end_turn), message_stop; without "stream" one JSON
//     message; POST /v1/messages/count_tokens a token estimate.
//   - OpenAI Responses (codex with a custom provider,
//     base_url=http://ADDR/v1, wire_api="responses"): POST /v1/responses
//     answers response.created, response.in_progress,
//     response.output_item.added, response.content_part.added,
//     response.output_text.delta per word, response.output_text.done,
//     response.content_part.done, response.output_item.done,
//     response.completed.
//
// A request for structured output (claude and codex title the session
// with one beside the turn) gets {"title": ...} at once; every other one
// gets the long markdown answer (headings, a list, a code block, a table)
// after -think (so the CLI's spinner shows), one word each -word-delay.
// GET /v1/models lists one model. Everything else is 404.
// Every request is logged to stderr (method, path, start of the body),
// which is how the endpoints a CLI needs were found; -dump keeps whole
// bodies.
//
// Usage: go run ./scripts/agentmock -addr 127.0.0.1:6556 [-think 1.5s] [-word-delay 25ms] [-dump DIR]
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback)")
	think := flag.Duration("think", 1500*time.Millisecond, "pause before the first word of the long answer (the spinner shows)")
	delay := flag.Duration("word-delay", 25*time.Millisecond, "pause between streamed words")
	dump := flag.String("dump", "", "folder to write every request body to (NNN.json), for finding out what a CLI sends")
	flag.Parse()
	ln, err := listenLoopback(*addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("agentmock listening on http://%s\n", ln.Addr())
	logger := log.New(os.Stderr, "agentmock ", log.Ltime|log.Lmicroseconds)
	log.Fatal(http.Serve(ln, newHandler(pacing{think: *think, word: *delay}, logger, *dump)))
}

// listenLoopback listens on addr, which must be a loopback address: the
// mock answers anyone who asks and is never meant to be reachable.
func listenLoopback(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("agentmock: %s is not a loopback address", addr)
	}
	return net.Listen("tcp", addr)
}
