// Command alice is a terminal-first AI trading agent. This file is the
// composition root only: main hands the command line to the command table
// (commands.go), whose rows build the core (app) and hand it to the
// TUI or run it headless.
package main

import (
	"io"
	"os"
	_ "time/tzdata" // IANA zones for heartbeat active hours on hosts without zoneinfo
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole CLI behind main, with its writers injected for tests.
func run(args []string, stdout, stderr io.Writer) int {
	return dispatch(args, stdout, stderr)
}
