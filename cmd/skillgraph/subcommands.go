package main

import (
	"github.com/skillgraph/skillgraph/internal/cli/draw"
	"github.com/skillgraph/skillgraph/internal/cli/rate"
)

// subcommands are the command's subcommands, in the order help lists
// them. Each is a package internal/cli/NAME exporting Run, with the
// one-line Summary help shows. A new subcommand is one line here.
var subcommands = []subcommand{
	{"rate", rate.Summary, rate.Run},
	// history: TrueSkill Through Time (internal/cli/history)
	// scores: the score-based models (internal/cli/scores)
	// evaluate: both papers' protocols (internal/cli/evaluate)
	{"draw", draw.Summary, draw.Run},
	// conformance: the conformance suite (internal/cli/conformance)
	// serve: the league's rating page (internal/cli/serve)
}
