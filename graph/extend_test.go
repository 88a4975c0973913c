package graph_test

import (
	"errors"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// TestExtendKeepsIDsAndMessages grows a chain x → y by an observation of y
// after inference has run on it: the old nodes keep their IDs, messages and
// marginals, the new edges start uniform, and the new factor's message
// combines with the old belief as the closed form says. The graph extended
// is left as it was.
func TestExtendKeepsIDsAndMessages(t *testing.T) {
	b := graph.NewBuilder("chain")
	b.Group("old")
	x, y := b.AddVariable("x"), b.AddVariable("y")
	prior := b.AddFactor(factors.NewPrior(1, 4), "", x)
	link := b.AddFactor(factors.NewLikelihood(1), "", y, x) // y ~ N(x, 1)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, g, prior, 0)
	mustUpdate(t, g, link, 0)
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %.15g, want %.15g", what, got, want)
		}
	}
	near("y's variance before", g.Marginal(y).Variance(), 5)

	e := g.Extend()
	if e.NumVariables() != 2 || e.NumFactors() != 2 {
		t.Fatalf("the extending builder holds %d variables and %d factors, want 2 and 2", e.NumVariables(), e.NumFactors())
	}
	z := e.AddObserved("z", 3)
	obs := e.AddFactor(factors.NewLikelihood(2), "", z, y) // z ~ N(y, 2)
	h, err := e.Build()
	if err != nil {
		t.Fatal(err)
	}
	if z != 2 || obs != 2 {
		t.Fatalf("new IDs %d, %d; want 2, 2", z, obs)
	}
	for _, f := range []graph.FactorID{prior, link} {
		for i := range g.Arity(f) {
			if g.Message(f, i) != h.Message(f, i) || g.EdgeID(f, i) != h.EdgeID(f, i) {
				t.Errorf("factor %d edge %d: message %v (edge %d) became %v (edge %d)", f, i, g.Message(f, i), g.EdgeID(f, i), h.Message(f, i), h.EdgeID(f, i))
			}
		}
	}
	if g.Marginal(y) != h.Marginal(y) || !h.Message(obs, 1).IsUniform() {
		t.Errorf("y's marginal %v became %v, new message %v", g.Marginal(y), h.Marginal(y), h.Message(obs, 1))
	}
	if h.VariableGroup(x) != g.VariableGroup(x) || h.VariableGroup(z) != 0 || len(h.Groups()) != 2 {
		t.Errorf("groups: x in %d (was %d), z in %d, groups %q", h.VariableGroup(x), g.VariableGroup(x), h.VariableGroup(z), h.Groups())
	}
	mustUpdate(t, h, obs, 1)
	// y's belief N(1, 5) times the observation's message N(3, 2):
	// precision 1/5 + 1/2, mean (1/5 + 3/2)/(7/10).
	near("y's precision after", h.Marginal(y).Pi, 0.7)
	near("y's mean after", h.Marginal(y).Mean(), 1.7/0.7)
	if g.NumFactors() != 2 || g.NumVariables() != 2 || g.Marginal(y).Variance() != 5 {
		t.Errorf("the extended graph changed: %d factors, %d variables, y %v", g.NumFactors(), g.NumVariables(), g.Marginal(y))
	}
	if _, ok := h.Variable("z"); !ok {
		t.Error("the new variable's name is not indexed")
	}
}

// TestExtendReportsMistakes checks that an extended graph is validated as
// a new one is: a name used twice, old and new, is an error.
func TestExtendReportsMistakes(t *testing.T) {
	b := graph.NewBuilder("g")
	x := b.AddVariable("x")
	b.AddFactor(factors.NewPrior(0, 1), "", x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := g.Extend()
	x2 := e.AddVariable("x")
	e.AddFactor(factors.NewPrior(0, 1), "", x2)
	if _, err := e.Build(); !errors.Is(err, messages.ErrInput) {
		t.Errorf("a name used twice: error %v, want %v", err, messages.ErrInput)
	}
}

func mustUpdate(t *testing.T, g *graph.Graph, f graph.FactorID, i int) {
	t.Helper()
	if _, _, err := g.Update(f, i, 0); err != nil {
		t.Fatal(err)
	}
}
