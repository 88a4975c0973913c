// Command skillgraph runs skillgraph's jobs from a shell: rating a league,
// drawing a factor graph, and (as they are added) TrueSkill Through Time,
// the score-based models, the papers' evaluations, the conformance suite
// and the league's web page.
//
//	go install github.com/skillgraph/skillgraph/cmd/skillgraph@latest
//	skillgraph help                  the subcommands
//	skillgraph help SUBCOMMAND       one subcommand's flags (or SUBCOMMAND -h)
//	skillgraph rate                  the bundled office league's leaderboard
//	skillgraph draw -o game.svg      a 2v2 game's factor graph
//
// From a clone, go run ./cmd/skillgraph SUBCOMMAND … does the same.
// Each subcommand reports a mistake in one line, with exit status 2 for a
// usage error and 1 for any other failure.
package main

import (
	"io"
	"os"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command with its arguments and streams, returning the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	return dispatch(subcommands, args, stdout, stderr)
}
