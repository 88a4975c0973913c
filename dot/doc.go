// Package dot draws skillgraph factor graphs as Graphviz DOT text.
//
// Variables are circles (observed ones shaded darker), factors small black
// squares labelled beside them (N(s1; 25, 69.44), I(d1 > 0.7405),
// t2 = p2 + p3, …), and each named layer of the graph is one row, so a
// TrueSkill game reads top to bottom like Figure 1 of the paper: priors,
// skills, performances, team performances, differences, comparisons. Given a
// schedule, every message is numbered in the order the schedule sends it
// (HideNumbers leaves the numbers out) and coloured by direction, down or
// up, and by whether a loop iterates it; with Values, each variable shows
// its current marginal, so inference can be watched step by step. The
// A graph built without layers (or with Options.Structural) gets rows
// derived from its structure instead (StructuralLayers: the longest path
// down from the priors, each factor below its inputs and above the
// variable it defines), so that any graph reads top to bottom and a long
// history grows down the page rather than into one row. The
// groups a builder sets (graph.Builder.Group: a player over time, a game)
// are drawn as boxed clusters, and rows keep the order of the layers even
// where no edge holds them.
//
// The writer is a small custom one rather than gonum's encoding/dot: it
// needs rows, external labels and per-edge arrows, which are a few lines
// here, and it guarantees the same bytes for the same graph. Its output is
// checked with Graphviz (dot -Tsvg) in the tests when Graphviz is installed.
// Package dot knows graphs and schedules, not models.
package dot
