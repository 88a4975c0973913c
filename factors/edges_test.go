package factors_test

import (
	"errors"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// TestMessageOnMissingEdge asks the factors that index their parameters by
// edge for an edge they lack: messages.ErrInput, not a panic.
func TestMessageOnMissingEdge(t *testing.T) {
	b := graph.NewBuilder("edges")
	x, y, z := b.AddVariable("x"), b.AddVariable("y"), b.AddVariable("z")
	for _, v := range []graph.VarID{x, y, z} {
		b.AddFactor(factors.NewPrior(0, 1), "", v)
	}
	fs := []graph.Factor{factors.NewWeightedSum(1, 2), factors.NewLinearGaussian([]float64{1, -1, 2}, 0, 1, 1)}
	var ids []graph.FactorID
	for _, f := range fs {
		ids = append(ids, b.AddFactor(f, "", x, y, z))
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for k, f := range fs {
		for _, i := range []int{-1, f.Arity(), math.MaxInt, math.MinInt} {
			if m, err := f.Message(i, g.Edges(ids[k])); !errors.Is(err, messages.ErrInput) || !m.IsUniform() {
				t.Errorf("%T.Message(%d) = %v, %v; want messages.ErrInput", f, i, m, err)
			}
		}
	}
}
