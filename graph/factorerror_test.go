package graph_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// TestFactorError: the error names the graph, the factor and its label,
// and the method or edge; it unwraps to the method's error, and a panic
// is carried as Panic with nothing to unwrap.
func TestFactorError(t *testing.T) {
	b := graph.NewBuilder("season")
	x := b.AddVariable("x")
	f := b.AddFactor(factors.NewPrior(0, 1), "prior of x", x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := g.FactorError(f, "Message", 0, messages.ErrNumerical, nil)
	if !errors.Is(e, messages.ErrNumerical) || e.Panic != nil || e.Label != "prior of x" ||
		e.Error() != `graph "season": factor 0 prior of x, edge 0: numerical failure` {
		t.Errorf("error: %+v, %q", e, e.Error())
	}
	p := g.FactorError(f, "LogAverageFactor", -1, messages.ErrInput, "boom")
	if p.Unwrap() != nil || p.Panic != "boom" || !strings.HasSuffix(p.Error(), ": LogAverageFactor: panicked: boom") {
		t.Errorf("panic: %+v, %q", p, p.Error())
	}
}
