package graph_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// TestMissingIDs gives every method that takes an ID an ID the graph
// lacks: the accessors return the documented zero values, Observe and Send
// return errors, and the graph is unchanged.
func TestMissingIDs(t *testing.T) {
	b := graph.NewBuilder("ids")
	b.Group("game") // so that the group accessors index their slices
	x, y := b.AddVariable("x"), b.AddVariable("y")
	b.AddFactor(factors.NewPrior(1, 4), "", x)
	b.AddFactor(factors.NewLikelihood(2), "", y, x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	runChain2(t, g)
	before := state(g)
	uniform := messages.Gaussian{}
	for _, v := range []graph.VarID{-1, 2, math.MaxInt32} {
		if g.HasVariable(v) {
			t.Errorf("HasVariable(%d) = true", v)
		}
		if m := g.Marginal(v); m != uniform {
			t.Errorf("Marginal(%d) = %v, want uniform", v, m)
		}
		if n := g.VariableName(v); n != "" {
			t.Errorf("VariableName(%d) = %q", v, n)
		}
		if l, gr, d := g.VariableLayer(v), g.VariableGroup(v), g.Degree(v); l != 0 || gr != 0 || d != 0 {
			t.Errorf("VariableLayer, VariableGroup, Degree(%d) = %d, %d, %d; want 0", v, l, gr, d)
		}
		if val, ok := g.Observed(v); val != 0 || ok {
			t.Errorf("Observed(%d) = %v, %v", v, val, ok)
		}
		if f, i := g.VariableEdge(v, 0); f != -1 || i != -1 {
			t.Errorf("VariableEdge(%d, 0) = %d, %d; want -1, -1", v, f, i)
		}
		if err := g.Observe(v, 1); !errors.Is(err, messages.ErrInput) {
			t.Errorf("Observe(%d) = %v, want messages.ErrInput", v, err)
		}
	}
	for _, k := range []int{-1, 2, math.MaxInt} { // x has 2 connections
		if f, i := g.VariableEdge(x, k); f != -1 || i != -1 {
			t.Errorf("VariableEdge(x, %d) = %d, %d; want -1, -1", k, f, i)
		}
	}
	for _, f := range []graph.FactorID{-1, 2, math.MaxInt32} {
		if g.HasFactor(f) || g.HasEdge(f, 0) {
			t.Errorf("HasFactor(%d) or HasEdge(%d, 0) = true", f, f)
		}
		if g.Factor(f) != nil || g.FactorLabel(f) != "" || g.FactorLayer(f) != 0 || g.FactorGroup(f) != 0 || g.Arity(f) != 0 {
			t.Errorf("factor %d: %v %q %d %d %d; want zero values", f, g.Factor(f), g.FactorLabel(f), g.FactorLayer(f), g.FactorGroup(f), g.Arity(f))
		}
		e := g.Edges(f)
		for _, i := range []int{-1, 0, 1, math.MaxInt} {
			if c, m, msg := e.Cavity(i), e.Marginal(i), e.Message(i); c != uniform || m != uniform || msg != uniform {
				t.Errorf("Edges(%d) edge %d: cavity %v, marginal %v, message %v; want uniform", f, i, c, m, msg)
			}
		}
	}
	// Edges that factor 1 (arity 2) lacks, and factor 0 (arity 1).
	for _, fe := range [][2]int{{1, -1}, {1, 2}, {0, 1}, {0, math.MaxInt}, {-1, 0}} {
		f, i := graph.FactorID(fe[0]), fe[1]
		if g.HasEdge(f, i) || g.EdgeVariable(f, i) != -1 || g.EdgeID(f, i) != -1 || g.Message(f, i) != uniform {
			t.Errorf("edge %d of factor %d: %v %d %d %v; want false, -1, -1, uniform", i, f, g.HasEdge(f, i), g.EdgeVariable(f, i), g.EdgeID(f, i), g.Message(f, i))
		}
		if _, _, err := g.Update(f, i, 0); !errors.Is(err, messages.ErrInput) {
			t.Errorf("Update(%d, %d) = %v, want messages.ErrInput", f, i, err)
		}
	}
	for _, k := range []graph.EdgeID{-1, 3, math.MaxInt32} {
		if c := g.Cavity(k); c != uniform {
			t.Errorf("Cavity(%d) = %v, want uniform", k, c)
		}
		if _, _, err := g.Send(k, messages.NewGaussian(0, 1), 0); !errors.Is(err, messages.ErrInput) {
			t.Errorf("Send(%d) = %v, want messages.ErrInput", k, err)
		}
	}
	if d := cmp.Diff(before, state(g)); d != "" {
		t.Errorf("the graph changed (-before +after):\n%s", d)
	}
}

// TestObserve fixes a variable after Build, and rejects a value that is not
// finite as Build does, leaving the graph as it was.
func TestObserve(t *testing.T) {
	b := graph.NewBuilder("observe")
	x, y := b.AddVariable("x"), b.AddVariable("y")
	b.AddFactor(factors.NewPrior(1, 4), "", x)
	b.AddFactor(factors.NewLikelihood(2), "", y, x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if err := g.Observe(y, v); !errors.Is(err, messages.ErrInput) || !strings.Contains(err.Error(), "not finite") {
			t.Errorf("Observe(y, %v) = %v, want messages.ErrInput for a value not finite", v, err)
		}
		if _, ok := g.Observed(y); ok || g.NumObserved() != 0 || !g.Marginal(y).IsUniform() {
			t.Errorf("Observe(y, %v) changed y: observed %v, %d observed, marginal %v", v, ok, g.NumObserved(), g.Marginal(y))
		}
	}
	if err := g.Observe(y, 3); err != nil {
		t.Fatal(err)
	}
	runChain2(t, g)
	// x ~ N(1, 4) and 3 ~ N(x, 2): precision 1/4 + 1/2, mean (1/4 + 3/2)/(3/4).
	if got, want := g.Marginal(x), messages.NewGaussian(7.0/3, 4.0/3); messages.Distance(got, want) > 1e-15 {
		t.Errorf("x = %v, want %v", got, want)
	}
	if v, ok := g.Observed(y); !ok || v != 3 || g.NumObserved() != 1 || g.Marginal(y) != messages.PointMass(3) {
		t.Errorf("y: observed %v %v, %d observed, marginal %v", v, ok, g.NumObserved(), g.Marginal(y))
	}
}

// TestZeroBuilder builds with a zero Builder: layer and group 0 are the
// unnamed ones, as with NewBuilder, so "row" and "g" are indexed 1.
func TestZeroBuilder(t *testing.T) {
	var b graph.Builder
	b.Group("g")
	b.Layer("row")
	x := b.AddVariable("x")
	b.AddFactor(factors.NewPrior(0, 1), "", x)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if l, gr := g.Layers(), g.Groups(); len(l) != 2 || l[0] != "" || l[1] != "row" || len(gr) != 2 || gr[0] != "" || gr[1] != "g" {
		t.Errorf("layers %q, groups %q; want [\"\" row], [\"\" g]", l, gr)
	}
	if g.VariableLayer(x) != 1 || g.VariableGroup(x) != 1 || g.FactorLayer(0) != 1 || g.FactorGroup(0) != 1 {
		t.Errorf("x in layer %d group %d, factor in layer %d group %d; want 1", g.VariableLayer(x), g.VariableGroup(x), g.FactorLayer(0), g.FactorGroup(0))
	}
}

// TestCheckDamping pins the damping rule that Update, Send and loops share.
func TestCheckDamping(t *testing.T) {
	for _, d := range []float64{0, 0.5, math.Nextafter(1, 0)} {
		if err := graph.CheckDamping(d); err != nil {
			t.Errorf("CheckDamping(%v) = %v", d, err)
		}
	}
	for _, d := range []float64{-1, math.Copysign(1e-300, -1), 1, 2, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if err := graph.CheckDamping(d); !errors.Is(err, messages.ErrInput) {
			t.Errorf("CheckDamping(%v) = %v, want messages.ErrInput", d, err)
		}
	}
}

// runChain2 runs the two factors of the x → y chain forwards and back.
func runChain2(t *testing.T, g *graph.Graph) {
	t.Helper()
	for _, s := range [][2]int{{0, 0}, {1, 0}, {1, 1}} {
		if _, _, err := g.Update(graph.FactorID(s[0]), s[1], 0); err != nil {
			t.Fatal(err)
		}
	}
}

// graphState is every marginal and message of a graph.
type graphState struct {
	Marginals, Messages []messages.Gaussian
}

func state(g *graph.Graph) graphState {
	var s graphState
	for v := range g.NumVariables() {
		s.Marginals = append(s.Marginals, g.Marginal(graph.VarID(v)))
	}
	for f := range g.NumFactors() {
		for i := range g.Arity(graph.FactorID(f)) {
			s.Messages = append(s.Messages, g.Message(graph.FactorID(f), i))
		}
	}
	return s
}
