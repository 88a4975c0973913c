package dot_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/dot"
	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// TestStructuralFigure1: the rows derived from a TrueSkill game's
// structure are the paper's Figure 1 rows its builder names, for games of
// several shapes.
func TestStructuralFigure1(t *testing.T) {
	p := trueskill.DefaultParams()
	n := p.NewRating()
	for _, m := range []trueskill.Match{
		{Teams: [][]trueskill.Rating{{n}, {n}}},
		{Teams: [][]trueskill.Rating{{n}, {n, n}, {n}}, Ranks: []int{1, 2, 2}},
		{Teams: [][]trueskill.Rating{{n, n}, {n}, {n, n, n}, {n}}, Ranks: []int{3, 0, 1, 2}},
	} {
		gm, err := p.NewGame(m)
		if err != nil {
			t.Fatal(err)
		}
		g := gm.Graph()
		varRow, facRow := dot.StructuralLayers(g)
		// The named layers hold the unnamed layer "" first, which no node
		// of a game is in: the rows count from the priors' layer.
		top := g.NumFactors()
		for f := range facRow {
			top = min(top, g.FactorLayer(graph.FactorID(f)))
		}
		for v := range varRow {
			if want := g.VariableLayer(graph.VarID(v)) - top; varRow[v] != want {
				t.Errorf("%d teams: variable %s in row %d, Figure 1 puts it in %d", len(m.Teams), g.VariableName(graph.VarID(v)), varRow[v], want)
			}
		}
		for f := range facRow {
			if want := g.FactorLayer(graph.FactorID(f)) - top; facRow[f] != want {
				t.Errorf("%d teams: factor %s in row %d, Figure 1 puts it in %d", len(m.Teams), g.FactorLabel(graph.FactorID(f)), facRow[f], want)
			}
		}
	}
}

// TestStructuralChain: a chain x0 → x1 → x2 with a prior on x0 and an
// observation of x2, built with no layers, is drawn in rows prior 0,
// x0 1, link 2, x1 3, link 4, x2 5, observation 6; a cycle of user
// factors still gets rows.
func TestStructuralChain(t *testing.T) {
	b := graph.NewBuilder("chain")
	x := []graph.VarID{b.AddVariable("x0"), b.AddVariable("x1"), b.AddVariable("x2")}
	prior := b.AddFactor(factors.NewPrior(0, 1), "prior", x[0])
	l1 := b.AddFactor(factors.NewLikelihood(1), "l1", x[1], x[0])
	l2 := b.AddFactor(factors.NewLikelihood(1), "l2", x[2], x[1])
	obs := b.AddFactor(factors.NewGaussianObservation(1, 1), "obs", x[2])
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	varRow, facRow := dot.StructuralLayers(g)
	if !slices.Equal(varRow, []int{1, 3, 5}) {
		t.Errorf("variable rows %v, want [1 3 5]", varRow)
	}
	want := make([]int, 4)
	want[prior], want[l1], want[l2], want[obs] = 0, 2, 4, 6
	if !slices.Equal(facRow, want) {
		t.Errorf("factor rows %v, want %v", facRow, want)
	}
	text, err := dot.Marshal(g, dot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(text), "rank=same"); got != 7 {
		t.Errorf("%d rows drawn, want 7:\n%s", got, text)
	}

	// A cycle: a → b → c → a through sums.
	b = graph.NewBuilder("cycle")
	v := []graph.VarID{b.AddVariable("a"), b.AddVariable("b"), b.AddVariable("c")}
	for i := range v {
		b.AddFactor(factors.NewEquality(), "eq", v[(i+1)%3], v[i])
	}
	g, err = b.Build()
	if err != nil {
		t.Fatal(err)
	}
	varRow, facRow = dot.StructuralLayers(g)
	for _, r := range append(varRow, facRow...) {
		if r < 0 || r > 6 {
			t.Errorf("rows %v %v out of range", varRow, facRow)
		}
	}
}
