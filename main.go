// Command alice is a terminal-first AI trading agent. The composition root
// is app/ (wiring) and app/cli (the command table, doctor); main only hands
// it the command line.
//
// The runtime's periodic check of the cgroup CPU limit (Go 1.25+) would
// wake an idle alice every second for nothing: GOMAXPROCS is read once.
//
//go:debug updatemaxprocs=0
package main

import (
	"os"
	_ "time/tzdata" // IANA zones for heartbeat active hours on hosts without zoneinfo

	"github.com/alice-trading/alice/app/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
