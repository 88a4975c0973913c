package main

import (
	"github.com/skillgraph/skillgraph/internal/cli/conformance"
	"github.com/skillgraph/skillgraph/internal/cli/draw"
	"github.com/skillgraph/skillgraph/internal/cli/evaluate"
	"github.com/skillgraph/skillgraph/internal/cli/history"
	"github.com/skillgraph/skillgraph/internal/cli/rate"
	"github.com/skillgraph/skillgraph/internal/cli/scores"
)

// subcommands are the command's subcommands, in the order help lists
// them. Each is a package internal/cli/NAME exporting Run, with the
// one-line Summary help shows. A new subcommand is one line here.
var subcommands = []subcommand{
	{"rate", rate.Summary, rate.Run},
	{"history", history.Summary, history.Run},
	{"scores", scores.Summary, scores.Run},
	{"evaluate", evaluate.Summary, evaluate.Run},
	{"draw", draw.Summary, draw.Run},
	{"conformance", conformance.Summary, conformance.Run},
	// serve: the league's rating page (internal/cli/serve)
}
