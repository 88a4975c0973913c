package schedules_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
)

// TestLargeChain builds one graph of 300,000 variables (a random walk
// x₀ → x₁ → … observed at its end, the shape of a skill tracked through a
// long match history), runs the automatic tree schedule, and checks the
// first variable's posterior against the closed form: nothing in building,
// scheduling or running may grow faster than the graph.
func TestLargeChain(t *testing.T) {
	if testing.Short() {
		t.Skip("large graph")
	}
	const n, step, noise, y = 300_000, 1e-4, 1.0, 2.0
	b := graph.NewBuilder("walk")
	prev := b.AddVariable("x0")
	first := prev
	b.AddFactor(factors.NewPrior(0, 1), "", prev)
	for i := 1; i < n; i++ {
		x := b.AddVariable(fmt.Sprintf("x%d", i))
		b.AddFactor(factors.NewLikelihood(step), "", x, prev)
		prev = x
	}
	b.AddFactor(factors.NewGaussianObservation(y, noise), "", prev)
	g, _ := buildAndRunTree(t, b)
	// y = x₀ + Σ steps + noise: x₀ | y has precision 1 + 1/v, v = (n−1)·step + noise.
	v := float64(n-1)*step + noise
	pi := 1 + 1/v
	got := g.Marginal(first)
	if math.Abs(got.Mean()-(y/v)/pi) > 1e-9 || math.Abs(got.Variance()-1/pi) > 1e-9 {
		t.Errorf("x0 = %v, want N(%v, %v)", got, (y/v)/pi, 1/pi)
	}
	lz, err := g.LogEvidence()
	if err != nil {
		t.Fatal(err)
	}
	want := -0.5*math.Log(2*math.Pi*(1+v)) - 0.5*y*y/(1+v)
	if math.Abs(lz-want) > 1e-6 {
		t.Errorf("log evidence %v, want %v", lz, want)
	}
}
